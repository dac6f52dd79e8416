// Generated from contracts/sandbox.openapi.yaml by contracts/codegen.ts. Do not edit.
export interface paths {
    "/__sandbox/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Provisions a fresh, isolated tenant with its own tokens.
         * @description A new tenant with a read and a write token: seeded with a count of
         *     plants (from `seed`), or holding exactly the given plants (what a reset
         *     returns to). With `ttlSeconds` its tokens stop working after that time
         *     and it is removed. At the sandbox's `--max-tenants`, a new tenant
         *     takes the place of the least recently used idle one (unused for 10
         *     minutes); when none is idle the answer is 503 with `Retry-After`.
         *     Without an admin key, provisioning has a rate (10 tenants a second per
         *     client address, 20 in all, after a burst; `--provision-rate`,
         *     `--provision-rate-total`): past it the answer is 429 with
         *     `Retry-After`. The body is optional (empty means all defaults); when
         *     given it must be `application/json`, at most 64 KiB.
         */
        post: operations["provisionTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__sandbox/tenants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Deletes a provisioned tenant; its tokens stop working at once.
         * @description Only with the tenant's own write token, and only for a provisioned
         *     tenant: another tenant's id is a 404, a tenant of the sandbox's world
         *     (`acme`, …) a 403.
         */
        delete: operations["deleteTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__sandbox/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Puts the caller's tenant back to how it started.
         * @description Its plants back to its seeded (or exact) ones; its journal and fault
         *     rules emptied. It takes no body: one is a 400.
         */
        post: operations["resetTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/__sandbox/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's journaled requests that match, with their count.
         * @description The tenant's recent exchanges with the Plant Store API (bounded per
         *     tenant), `Authorization` redacted: `count` matching entries, the
         *     `limit` most recent of them, oldest first. Each parameter at most once.
         */
        get: operations["listRequests"];
        put?: never;
        post?: never;
        /** Empties the caller's journal; its data stays. */
        delete: operations["clearRequests"];
        options?: never;
        /** The status and headers of GET /__sandbox/requests, without the body. */
        head: operations["headListRequests"];
        patch?: never;
        trace?: never;
    };
    "/__sandbox/faults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's fault rules, in the order they fire. */
        get: operations["listFaults"];
        put?: never;
        /**
         * Adds a fault rule after the caller's others.
         * @description The first rule in force that matches a request of the tenant fires
         *     (creation order) and answers instead of the store. A tenant holds a
         *     bounded number of rules (50 by default): adding one more first drops
         *     its spent and expired ones, and is a 409 when none is.
         */
        post: operations["addFault"];
        /** Deletes all the caller's fault rules. */
        delete: operations["clearFaults"];
        options?: never;
        /** The status and headers of GET /__sandbox/faults, without the body. */
        head: operations["headListFaults"];
        patch?: never;
        trace?: never;
    };
    "/__sandbox/faults/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rule id, as adding it answered (`f_…`). */
                id: string;
            };
            cookie?: never;
        };
        /** One of the caller's fault rules. */
        get: operations["getFault"];
        put?: never;
        post?: never;
        /** Deletes one of the caller's fault rules. */
        delete: operations["deleteFault"];
        options?: never;
        /** The status and headers of GET /__sandbox/faults/{id}, without the body. */
        head: operations["headGetFault"];
        patch?: never;
        trace?: never;
    };
    "/__sandbox/plants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's plants with their ids, oldest first (not journaled). */
        get: operations["listTenantPlants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The status and headers of GET /__sandbox/plants, without the body. */
        head: operations["headListTenantPlants"];
        patch?: never;
        trace?: never;
    };
    "/__sandbox/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Which of the Plant Store contract's answers the caller's requests provoked.
         * @description The caller tenant's contract coverage, counted since its journal was
         *     last cleared: each operation's declared statuses with their hits
         *     (and, for a status with several causes, hits per cause), and the
         *     answers outside the contract. A 404 when the sandbox counts none.
         */
        get: operations["tenantCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The status and headers of GET /__sandbox/coverage, without the body. */
        head: operations["headTenantCoverage"];
        patch?: never;
        trace?: never;
    };
    "/__sandbox/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process is up. */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The status and headers of GET /__sandbox/health, without the body. */
        head: operations["headHealth"];
        patch?: never;
        trace?: never;
    };
    "/__sandbox/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness, for a load balancer.
         * @description 200 while the sandbox can serve; 503 with `Retry-After` while it
         *     cannot: its world failed to load, or a cluster replica has not reached
         *     Redis yet.
         */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The status and headers of GET /__sandbox/ready, without the body. */
        head: operations["headReady"];
        patch?: never;
        trace?: never;
    };
    "/__sandbox/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The live inspector's stream of the caller's exchanges (server-sent events).
         * @description Authorised by the tenant's token in `Authorization`, never in the URL.
         *     Each event's `data` is one line of JSON; `x-events` of the 200 answer
         *     gives each event's name and the schema of its data. It opens with
         *     `hello`, `plants`, `faults` and (when the sandbox counts coverage)
         *     `coverage`, then sends `plants`, `faults`, `coverage`, `exchange` and
         *     `skipped` as they change, batched. It ends with `gone` (the tenant
         *     was removed), `expired` (the token expired) or `released` (a cluster
         *     replica handed the tenant to another, or the sandbox is stopping:
         *     reconnect). A tenant may hold
         *     4 streams open, the sandbox 100; more are a 429.
         */
        get: operations["inspectorEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The status and headers of GET /__sandbox/events, without the body. */
        head: operations["headInspectorEvents"];
        patch?: never;
        trace?: never;
    };
    "/__sandbox/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document, as JSON. */
        get: operations["sandboxContract"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The status and headers of GET /__sandbox/openapi.json, without the body. */
        head: operations["headSandboxContract"];
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            /**
             * Format: int32
             * @description The HTTP status of the answer.
             */
            error: number;
            /** @description A human sentence saying what went wrong. */
            message: string;
        };
        /** @description A plant with its id, as the sandbox stores it. */
        Plant: {
            /**
             * Format: int64
             * @description Identification number of the plant, unique within the caller's tenant.
             */
            id: number;
            /** @description Name of the plant */
            name: string;
            /** @description Tag to specify the type; omitted when the plant has none. */
            tag?: string;
        };
        /** @description A plant a tenant starts with; a `null` tag counts as absent. */
        RecipePlant: {
            /**
             * Format: int64
             * @description Identification number of the plant, unique within the caller's tenant.
             */
            id: number;
            /** @description Name of the plant */
            name: string;
            tag?: string | null;
        };
        /** @description What a provisioned tenant starts with; every field optional. */
        TenantRecipe: {
            /**
             * @description How many seeded plants (default: the sandbox's, 5), at most the
             *     tenant's quota; or its exact plants, oldest first, with distinct
             *     ids, at most the quota.
             */
            plants?: number | components["schemas"]["RecipePlant"][];
            /** @description The faker seed of a count of plants (default random). */
            seed?: number;
            /** @description Seconds until its tokens stop working and it is removed. */
            ttlSeconds?: number;
            /** @description How many plants it may hold, at most the sandbox's quota (its default, 10,000 unless configured). */
            quota?: number;
        };
        ProvisionedTenant: {
            /** @description Its id (`t_…`). */
            tenant: string;
            tokens: {
                /** @description A token with `plants:read`. */
                read: string;
                /** @description A token with `plants:read` and `plants:write`. */
                write: string;
            };
            /** @description How many plants it starts with. */
            plants: number;
            /** @description The seed its plants were generated from; absent with exact plants. */
            seed?: number;
            /**
             * Format: date-time
             * @description When its tokens stop working; absent without a time-to-live.
             */
            expiresAt?: string;
            /** @description How many plants it may hold. */
            quota?: number;
        };
        /**
         * @description An HTTP method, in any case, as requests are journaled with it: any
         *     method the sandbox's HTTP server takes, routed or not (`GET`, `PUT`,
         *     `PATCH`, `OPTIONS`, `PROPFIND`, `M-SEARCH`, …).
         */
        JournalMethod: string;
        /** @description A method the Plant Store contract has (`HEAD` wherever it has `GET`), in any case. */
        RuleMethod: string;
        /**
         * @description A method the Plant Store contract has, in upper case.
         * @enum {string}
         */
        Method: "GET" | "HEAD" | "POST" | "DELETE";
        /**
         * @description A path as sent (`/plants/42`, `/nope`: still percent-encoded, no
         *     query), or one of the Plant Store contract's templates (such as
         *     `/plants/{id}`), which matches every path routed to it. At most 256
         *     characters.
         */
        JournalPath: string | ("/plants" | "/plants/{id}") | unknown;
        /**
         * @description A path the Plant Store contract routes: one of its templates
         *     (such as `/plants/{id}`), which matches every path routed to it, or
         *     a literal path routed to one (`/plants/42`, `/plants/`), matched
         *     exactly. At most 256 characters. A rule for any other path could
         *     never fire.
         */
        RulePath: string;
        FaultRuleFields: {
            path?: components["schemas"]["RulePath"];
            /** @description Answer this status with the contract's Error body (a 401 or 403 with its challenge). */
            status?: number;
            /** @description The Error body's message of a `status` answer. */
            message?: string;
            /**
             * @description Fail the transport: `reset` (a TCP reset), `empty` (a close before
             *     any byte), `truncated` (headers and half the promised body), or
             *     answer `malformed` JSON (a 200 cut in half).
             * @enum {string}
             */
            fault?: "reset" | "empty" | "truncated" | "malformed";
            /** @description Wait this long, then answer (the real answer, or the rule's). */
            delayMs?: number;
            /** @description Fire for the next this many matching requests. */
            times?: number;
            /** @description Fire until this long after it was added. */
            windowMs?: number;
        };
        /**
         * @description A fault rule as a test writes it. It matches the tenant's requests by
         *     `method` and `path` (both optional: any) and needs `status`, `fault` or
         *     `delayMs`; `status` and `fault` exclude each other, and `message` goes
         *     only with `status`. With both `method` and `path`, the method is one
         *     the contract has at that path (one `if`/`then` per path). Without
         *     `times` or `windowMs` it fires until deleted.
         */
        FaultRuleInput: components["schemas"]["FaultRuleFields"] & {
            method?: components["schemas"]["RuleMethod"];
        } & unknown & unknown & (unknown | unknown | unknown) & unknown & unknown;
        /** @description A fault rule as listed, with its id and how it has fired. */
        FaultRule: components["schemas"]["FaultRuleFields"] & {
            /** @description Its id (`f_…`). */
            id: string;
            method?: components["schemas"]["Method"];
            /** Format: date-time */
            createdAt: string;
            /** @description How many requests it answered so far. */
            fired: number;
            /** @description How many more times it fires (with `times`). */
            remaining?: number;
            /**
             * Format: date-time
             * @description When it stops firing (with `windowMs`).
             */
            expiresAt?: string;
            /** @description Whether it still fires (neither spent nor expired). */
            active: boolean;
        };
        FaultRuleList: {
            tenant: string;
            faults: components["schemas"]["FaultRule"][];
        };
        /** @description One exchange of the tenant with the Plant Store API. */
        JournalEntry: {
            /** @description The request id (the client's `X-Request-Id`, or one the sandbox gave). */
            id: string;
            /**
             * Format: date-time
             * @description When it was answered.
             */
            at: string;
            /** @description The Plant Store operation it was routed to; `null` for an unknown path or method. */
            operation: string | null;
            request: {
                method: string;
                /** @description As sent, still percent-encoded. */
                path: string;
                /** @description The raw query string without `?`. */
                query: string;
                /** @description The headers that matter to the contract; `authorization` redacted. */
                headers: {
                    [key: string]: string;
                };
                /** @description The body as text (cut to the journal's limit), or `null` when none was read. */
                body: string | null;
            };
            response: {
                /** @description The status; `0` when the transport was made to fail. */
                status: number;
                headers: {
                    [key: string]: string;
                };
                body: string | null;
                /**
                 * @description How the transport was made to fail.
                 * @enum {string}
                 */
                fault?: "reset" | "empty" | "truncated";
                reason?: components["schemas"]["ErrorReason"];
            };
        };
        /**
         * @description Why an Error answer was given, as data rather than its message's
         *     wording: the field and the rule of a 400, whether a 401's token was
         *     missing, invalid or expired, the scope a 403 lacked. Only on answers
         *     the Plant Store's rules gave (not on fault rules' or made-up answers).
         */
        ErrorReason: {
            /** @description The field of a 400 (`name`, `tag`, `id`, `limit`, `body`). */
            field?: string;
            /** @description The rule it broke (`required`, `too_big`, `format`, `json`, …). */
            rule?: string;
            /**
             * @description A 401's token.
             * @enum {string}
             */
            token?: "missing" | "invalid" | "expired";
            /** @description The scope a 403's token lacked. */
            scope?: string;
        };
        JournalAnswer: {
            tenant: string;
            /** @description How many kept entries match (before `limit`). */
            count: number;
            /** @description Entries the bounded journal let go since it was last cleared. */
            dropped: number;
            /** @description The matching entries, oldest first. */
            requests: components["schemas"]["JournalEntry"][];
        };
        TenantPlants: {
            tenant: string;
            /** @description How many plants the tenant holds. */
            count: number;
            plants: components["schemas"]["Plant"][];
        };
        /** @description A tenant's contract coverage. */
        CoverageAnswer: components["schemas"]["TenantOnly"] & components["schemas"]["CoverageReport"];
        TenantOnly: {
            /** @description The tenant's id. */
            tenant: string;
        };
        /** @description Which of the Plant Store contract's declared answers were given, and the answers outside it. */
        CoverageReport: {
            /** @description Declared answers (operation × status) answered at least once. */
            covered: number;
            /** @description Declared answers of the contract. */
            total: number;
            /** @description `covered / total` in percent, to one decimal. */
            percent: number;
            operations: {
                operationId: string;
                method: string;
                path: string;
                responses: {
                    status: number;
                    hits: number;
                    conditions?: components["schemas"]["CoverageHits"][];
                }[];
            }[];
            /** @description Answers with a status the operation does not declare, or a transport fault. */
            undocumented: components["schemas"]["CoverageExtra"][];
            /** @description Requests routed to no operation (`GET 404`, `PUT 405`). */
            unrouted: components["schemas"]["CoverageExtra"][];
        };
        CoverageHits: {
            condition: string;
            hits: number;
        };
        CoverageExtra: {
            answer: string;
            hits: number;
        };
        Health: {
            /** @constant */
            status: "ok";
        };
        Storage: {
            /**
             * @description Where it keeps its state.
             * @enum {unknown}
             */
            storage: "memory" | "redis";
            /**
             * @description A cluster replica's Redis connection.
             * @enum {unknown}
             */
            redis?: "up" | "down";
        };
        Readiness: components["schemas"]["Storage"] & {
            /** @constant */
            status: "ready";
        };
        NotReady: components["schemas"]["Error"] & components["schemas"]["Storage"] & {
            /** @constant */
            status: "not ready";
        };
    };
    responses: {
        /** @description A parameter or the body is invalid, or unknown; the message names the field. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The `Authorization` header is missing or not Bearer (a challenge
         *     without an error), or the token is unknown, expired or malformed
         *     (`error="invalid_token"`).
         */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["BearerChallenge"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The token lacks the scope the operation needs
         *     (`error="insufficient_scope"`); or, on a sandbox with an admin key, it
         *     is a token of the shared fixture world, which is read-only there
         *     (the same challenge); or, for a request other than GET or HEAD, its
         *     web origin is not one the sandbox lists (no challenge).
         */
        Forbidden: {
            headers: {
                "WWW-Authenticate": components["headers"]["OptionalBearerChallenge"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request (not a GET or HEAD) comes from a web origin the sandbox
         *     does not list in `--cors-origins`; nothing ran.
         */
        ForeignOrigin: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request claims to come from a page of a host name that is not
         *     one of the sandbox's own (`--allowed-host`), or came in on a loopback
         *     address under such a `Host`: a DNS rebinding; nothing ran.
         */
        ForeignHost: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The part of the sandbox that serves this path could not be loaded
         *     (its files changed under the running sandbox); nothing ran. The next
         *     request tries again.
         */
        NotLoaded: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No such path below `/__sandbox`. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The caller's tenant has no fault rule with this id. */
        NoSuchRule: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path does not have this method; `Allow` names the ones it has. */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is larger than 64 KiB. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is not `application/json` (only a UTF-8 charset parameter is allowed). */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The sandbox holds its maximum of provisioned tenants, all used in the
         *     last 10 minutes (none is evicted while in use), or a cluster replica
         *     cannot store the tenant; nothing changed. Try again after
         *     `Retry-After` seconds.
         */
        TenantsUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description A sandbox that keeps its state in durable storage (replicas with
         *     `--redis-url`, or `--state-file` on a full or failing disk) cannot
         *     store the write right now, or (a replica with `--redis-url` whose
         *     Redis is unreachable) cannot load the caller's tenant, not yet
         *     served by that replica, to answer a read; nothing changed. Try again
         *     after `Retry-After` seconds. A sandbox without durable storage never
         *     answers it.
         */
        StorageUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The new tenant's plants do not fit the memory all tenants' plants may
         *     take together (`--plant-bytes-total`, counted from their strings),
         *     once tenants idle for the idle window were evicted, or this client's
         *     share of it (`--client-share`); nothing changed. Delete tenants or
         *     plants first.
         */
        SandboxFull: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before trying again. */
        RetryAfter: number;
        /** @description RFC 6750 challenge, e.g. `Bearer realm="plant-store", error="invalid_token"`. */
        BearerChallenge: string;
        /**
         * @description RFC 6750 challenge, present when the token lacks the scope or its
         *     tenant is read-only; absent when the request's web origin is refused.
         */
        OptionalBearerChallenge: string;
        /** @description The admin key challenge. */
        AdminKeyChallenge: "X-Admin-Key realm=\"plant-store-sandbox\"";
        /** @description The methods the path has, e.g. `GET, POST, DELETE`. */
        Allow: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    provisionTenant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TenantRecipe"];
            };
        };
        responses: {
            /** @description The tenant, its tokens and what it starts with. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvisionedTenant"];
                };
            };
            400: components["responses"]["BadRequest"];
            /**
             * @description The sandbox has an admin key and `X-Admin-Key` is missing or wrong
             *     (compared in constant time).
             */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["AdminKeyChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            403: components["responses"]["ForeignOrigin"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /**
             * @description Tenants are being provisioned faster than the sandbox's rate (from
             *     this client address, or in all), or this client address already
             *     holds its share of the provisioned tenants (`--client-share` of
             *     `--max-tenants`), every one of them used within the idle window;
             *     nothing was made. Try again after `Retry-After` seconds. Never
             *     under an admin key.
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["TenantsUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    deleteTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The tenant id, as provisioning answered it (`t_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant is gone. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /**
             * @description The token lacks `plants:write` (with its `insufficient_scope`
             *     challenge), the tenant belongs to the sandbox's world and cannot
             *     be deleted, or the request comes from a web origin the sandbox
             *     does not list.
             */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["OptionalBearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The id is not the token's own tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["StorageUnavailable"];
        };
    };
    resetTenant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant is back to how it started. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    listRequests: {
        parameters: {
            query?: {
                /**
                 * @description Only requests with this method (any case): any method the journal
                 *     can hold, routed or not (`PUT` is journaled as a 405).
                 */
                method?: components["schemas"]["JournalMethod"];
                /**
                 * @description Only requests to this path as sent (`/plants/42`, or `/nope`,
                 *     which is journaled as a 404), or to any path routed to this
                 *     contract template (`/plants/{id}`).
                 */
                path?: components["schemas"]["JournalPath"];
                /** @description An exact status (`503`), a class (`5xx`), or `0` for a transport fault. */
                status?: string;
                /** @description Entries answered at or after this instant. */
                since?: string;
                /** @description Entries answered before this instant (none when it is not after `since`). */
                until?: string;
                /** @description At most this many entries, the most recent ones. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JournalAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    clearRequests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The journal is empty. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    headListRequests: {
        parameters: {
            query?: {
                /**
                 * @description Only requests with this method (any case): any method the journal
                 *     can hold, routed or not (`PUT` is journaled as a 405).
                 */
                method?: components["schemas"]["JournalMethod"];
                /**
                 * @description Only requests to this path as sent (`/plants/42`, or `/nope`,
                 *     which is journaled as a 404), or to any path routed to this
                 *     contract template (`/plants/{id}`).
                 */
                path?: components["schemas"]["JournalPath"];
                /** @description An exact status (`503`), a class (`5xx`), or `0` for a transport fault. */
                status?: string;
                /** @description Entries answered at or after this instant. */
                since?: string;
                /** @description Entries answered before this instant (none when it is not after `since`). */
                until?: string;
                /** @description At most this many entries, the most recent ones. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As for GET, without the body: The matching entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge
             *     without an error), or the token is unknown, expired or malformed
             *     (`error="invalid_token"`).
             */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The token lacks the scope the operation needs
             *     (`error="insufficient_scope"`); or, on a sandbox with an admin key, it
             *     is a token of the shared fixture world, which is read-only there
             *     (the same challenge); or, for a request other than GET or HEAD, its
             *     web origin is not one the sandbox lists (no challenge).
             */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["OptionalBearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules with their counters. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaultRuleList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    addFault: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FaultRuleInput"];
            };
        };
        responses: {
            /** @description The rule with its id and counters. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaultRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The tenant holds its maximum of rules still in force. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    clearFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant has no rules. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    headListFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As for GET, without the body: The rules with their counters. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge
             *     without an error), or the token is unknown, expired or malformed
             *     (`error="invalid_token"`).
             */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The token lacks the scope the operation needs
             *     (`error="insufficient_scope"`); or, on a sandbox with an admin key, it
             *     is a token of the shared fixture world, which is read-only there
             *     (the same challenge); or, for a request other than GET or HEAD, its
             *     web origin is not one the sandbox lists (no challenge).
             */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["OptionalBearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getFault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rule id, as adding it answered (`f_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule with its counters. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaultRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoSuchRule"];
        };
    };
    deleteFault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rule id, as adding it answered (`f_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule is gone. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NoSuchRule"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    headGetFault: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The rule id, as adding it answered (`f_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As for GET, without the body: The rule with its counters. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge
             *     without an error), or the token is unknown, expired or malformed
             *     (`error="invalid_token"`).
             */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The token lacks the scope the operation needs
             *     (`error="insufficient_scope"`); or, on a sandbox with an admin key, it
             *     is a token of the shared fixture world, which is read-only there
             *     (the same challenge); or, for a request other than GET or HEAD, its
             *     web origin is not one the sandbox lists (no challenge).
             */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["OptionalBearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: The caller's tenant has no fault rule with this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listTenantPlants: {
        parameters: {
            query?: {
                /**
                 * @description The maximum number of results to return: decimal digits only, 0 to
                 *     2147483647. Absent means all plants; 0 returns an empty array.
                 *     Anything else (empty, signed, fractional, exponent, hex, spaces,
                 *     repeated, above int32) is a 400.
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plants, cut to `limit`, and how many there are in all. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantPlants"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    headListTenantPlants: {
        parameters: {
            query?: {
                /**
                 * @description The maximum number of results to return: decimal digits only, 0 to
                 *     2147483647. Absent means all plants; 0 returns an empty array.
                 *     Anything else (empty, signed, fractional, exponent, hex, spaces,
                 *     repeated, above int32) is a 400.
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As for GET, without the body: The plants, cut to `limit`, and how many there are in all. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge
             *     without an error), or the token is unknown, expired or malformed
             *     (`error="invalid_token"`).
             */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The token lacks the scope the operation needs
             *     (`error="insufficient_scope"`); or, on a sandbox with an admin key, it
             *     is a token of the shared fixture world, which is read-only there
             *     (the same challenge); or, for a request other than GET or HEAD, its
             *     web origin is not one the sandbox lists (no challenge).
             */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["OptionalBearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    tenantCoverage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenant's coverage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CoverageAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description This sandbox counts no coverage. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    headTenantCoverage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As for GET, without the body: The tenant's coverage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge
             *     without an error), or the token is unknown, expired or malformed
             *     (`error="invalid_token"`).
             */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The token lacks the scope the operation needs
             *     (`error="insufficient_scope"`); or, on a sandbox with an admin key, it
             *     is a token of the shared fixture world, which is read-only there
             *     (the same challenge); or, for a request other than GET or HEAD, its
             *     web origin is not one the sandbox lists (no challenge).
             */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["OptionalBearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: This sandbox counts no coverage. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            400: components["responses"]["BadRequest"];
        };
    };
    headHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As for GET, without the body: Up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready, and where it keeps its state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description Not ready; the Error body says why. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotReady"];
                };
            };
        };
    };
    headReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As for GET, without the body: Ready, and where it keeps its state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: Not ready; the Error body says why. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    inspectorEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream, open until the client or the tenant goes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description Too many open streams (for the tenant, or in all); close one first. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    headInspectorEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As for GET, without the body: The stream, open until the client or the tenant goes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge
             *     without an error), or the token is unknown, expired or malformed
             *     (`error="invalid_token"`).
             */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description As for GET, without the body: The token lacks the scope the operation needs
             *     (`error="insufficient_scope"`); or, on a sandbox with an admin key, it
             *     is a token of the shared fixture world, which is read-only there
             *     (the same challenge); or, for a request other than GET or HEAD, its
             *     web origin is not one the sandbox lists (no challenge).
             */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["OptionalBearerChallenge"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: Too many open streams (for the tenant, or in all); close one first. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    sandboxContract: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sandbox control API's OpenAPI document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["BadRequest"];
        };
    };
    headSandboxContract: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As for GET, without the body: The sandbox control API's OpenAPI document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
