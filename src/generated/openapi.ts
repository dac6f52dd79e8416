// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.
export interface paths {
    "/plants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Returns all plants of the caller's tenant, oldest first.
         * @description Returns the plants the authenticated user has access to: those of the
         *     user's tenant, in creation order (oldest first), cut to the first
         *     `limit` plants when `limit` is given.
         */
        get: operations["listPlants"];
        put?: never;
        /**
         * Creates a new plant in the store.
         * @description Creates a plant in the caller's tenant. The body must be
         *     `application/json` (only a UTF-8 charset parameter is allowed) and at most 64 KiB.
         *     Unknown fields are ignored; a `null` tag is treated as absent.
         */
        post: operations["addPlant"];
        delete?: never;
        options?: never;
        /**
         * Answers the headers of the plant list, without its body.
         * @description HTTP's HEAD for `GET /plants`: the same rules, status and headers as the
         *     list (including `Content-Length` and `WWW-Authenticate`), and no body.
         */
        head: operations["headPlants"];
        patch?: never;
        trace?: never;
    };
    "/plants/{id}": {
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
         * Deletes a single plant based on the ID supplied.
         * @description Deletes the plant with this id from the caller's tenant. An id that
         *     does not exist in the caller's tenant is a 404, whether or not it
         *     exists in another tenant.
         */
        delete: operations["deletePlant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Plant: {
            /** @description Name of the plant */
            name: string;
            /** @description Tag to specify the type; omitted when the plant has none. */
            tag?: string;
        };
        NewPlant: {
            /**
             * Format: int64
             * @description Identification number of the plant, unique within the caller's tenant.
             */
            id: number;
            /** @description Name of the plant, 1 to 256 characters (not trimmed). */
            name: string;
            /** @description Tag to specify the type, at most 256 characters; `null` is treated as absent. */
            tag?: string | null;
        };
        Error: {
            /**
             * Format: int32
             * @description The HTTP status of the answer.
             */
            error: number;
            /** @description A human sentence saying what went wrong. */
            message: string;
        };
    };
    responses: {
        /** @description The request is invalid (a parameter or the body); the message names the field. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The `Authorization` header is missing or not Bearer (challenge without
         *     an error), or the token is unknown, expired or malformed
         *     (`error="invalid_token"`).
         */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The token lacks the scope the operation needs (`error="insufficient_scope"`). */
        Forbidden: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No plant with this id in the caller's tenant. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A plant with this id already exists in the caller's tenant. */
        Conflict: {
            headers: {
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
        /** @description The request body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The caller's tenant already holds its quota of plants (10,000 by
         *     default), or the sandbox's plants, all tenants together, are at the
         *     memory they may take (`--plant-bytes-total`) with no idle tenant to
         *     evict, or the plants of the tenants of the caller's client are at its
         *     share of it (`--client-share`); nothing stored is lost.
         */
        QuotaExceeded: {
            headers: {
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
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description ID of the plant in the caller's tenant: an optional `-` followed by
         *     decimal digits, within the range JavaScript represents exactly.
         */
        id: number;
        /**
         * @description The standalone sandbox only (the msw handlers ignore it), with a
         *     valid token; Prism's convention (RFC 7240). `delay=<ms>` holds the
         *     answer that long (at most 30,000 ms). `code=<status>` answers that
         *     status with the Error body (and the headers the contract requires for
         *     it) instead of running the operation; it must be a status from 400 to
         *     599 that this operation declares: any other `code` is a 400 naming
         *     the ones it declares, and the operation does not run. A fault rule
         *     (the sandbox-control API) answers any status. Applied preferences
         *     come back in `Preference-Applied`; others are ignored.
         */
        Prefer: string;
        /**
         * @description The maximum number of results to return: decimal digits only, 0 to
         *     2147483647. Absent means all plants; 0 returns an empty array.
         *     Anything else (empty, signed, fractional, exponent, hex, spaces,
         *     repeated, above int32) is a 400.
         */
        limit: number;
    };
    requestBodies: never;
    headers: {
        /** @description RFC 6750 challenge, e.g. `Bearer realm="plant-store", error="invalid_token"`. */
        "WWW-Authenticate": string;
        /** @description Seconds to wait before trying again. */
        "Retry-After": number;
    };
    pathItems: never;
}
export type Plant = components['schemas']['Plant'];
export type NewPlant = components['schemas']['NewPlant'];
export type Error = components['schemas']['Error'];
export type ResponseBadRequest = components['responses']['BadRequest'];
export type ResponseUnauthorized = components['responses']['Unauthorized'];
export type ResponseForbidden = components['responses']['Forbidden'];
export type ResponseNotFound = components['responses']['NotFound'];
export type ResponseConflict = components['responses']['Conflict'];
export type ResponsePayloadTooLarge = components['responses']['PayloadTooLarge'];
export type ResponseUnsupportedMediaType = components['responses']['UnsupportedMediaType'];
export type ResponseQuotaExceeded = components['responses']['QuotaExceeded'];
export type ResponseStorageUnavailable = components['responses']['StorageUnavailable'];
export type ParameterId = components['parameters']['id'];
export type ParameterPrefer = components['parameters']['Prefer'];
export type ParameterLimit = components['parameters']['limit'];
export type HeaderWwwAuthenticate = components['headers']['WWW-Authenticate'];
export type HeaderRetryAfter = components['headers']['Retry-After'];
export type $defs = Record<string, never>;
export interface operations {
    listPlants: {
        parameters: {
            query?: {
                /**
                 * @description The maximum number of results to return: decimal digits only, 0 to
                 *     2147483647. Absent means all plants; 0 returns an empty array.
                 *     Anything else (empty, signed, fractional, exponent, hex, spaces,
                 *     repeated, above int32) is a 400.
                 */
                limit?: components["parameters"]["limit"];
            };
            header?: {
                /**
                 * @description The standalone sandbox only (the msw handlers ignore it), with a
                 *     valid token; Prism's convention (RFC 7240). `delay=<ms>` holds the
                 *     answer that long (at most 30,000 ms). `code=<status>` answers that
                 *     status with the Error body (and the headers the contract requires for
                 *     it) instead of running the operation; it must be a status from 400 to
                 *     599 that this operation declares: any other `code` is a 400 naming
                 *     the ones it declares, and the operation does not run. A fault rule
                 *     (the sandbox-control API) answers any status. Applied preferences
                 *     come back in `Preference-Applied`; others are ignored.
                 */
                Prefer?: components["parameters"]["Prefer"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description plant response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
    addPlant: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The standalone sandbox only (the msw handlers ignore it), with a
                 *     valid token; Prism's convention (RFC 7240). `delay=<ms>` holds the
                 *     answer that long (at most 30,000 ms). `code=<status>` answers that
                 *     status with the Error body (and the headers the contract requires for
                 *     it) instead of running the operation; it must be a status from 400 to
                 *     599 that this operation declares: any other `code` is a 400 naming
                 *     the ones it declares, and the operation does not run. A fault rule
                 *     (the sandbox-control API) answers any status. Applied preferences
                 *     come back in `Preference-Applied`; others are ignored.
                 */
                Prefer?: components["parameters"]["Prefer"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description Plant to add to the store */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": 100,
                 *       "name": "Fern",
                 *       "tag": "fern"
                 *     }
                 */
                "application/json": components["schemas"]["NewPlant"];
            };
        };
        responses: {
            /** @description plant response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            503: components["responses"]["StorageUnavailable"];
            507: components["responses"]["QuotaExceeded"];
        };
    };
    headPlants: {
        parameters: {
            query?: {
                /**
                 * @description The maximum number of results to return: decimal digits only, 0 to
                 *     2147483647. Absent means all plants; 0 returns an empty array.
                 *     Anything else (empty, signed, fractional, exponent, hex, spaces,
                 *     repeated, above int32) is a 400.
                 */
                limit?: components["parameters"]["limit"];
            };
            header?: {
                /**
                 * @description The standalone sandbox only (the msw handlers ignore it), with a
                 *     valid token; Prism's convention (RFC 7240). `delay=<ms>` holds the
                 *     answer that long (at most 30,000 ms). `code=<status>` answers that
                 *     status with the Error body (and the headers the contract requires for
                 *     it) instead of running the operation; it must be a status from 400 to
                 *     599 that this operation declares: any other `code` is a 400 naming
                 *     the ones it declares, and the operation does not run. A fault rule
                 *     (the sandbox-control API) answers any status. Applied preferences
                 *     come back in `Preference-Applied`; others are ignored.
                 */
                Prefer?: components["parameters"]["Prefer"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the headers of the plant list, no body */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description as for GET, without the Error body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description as for GET, without the Error body */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description as for GET, without the Error body */
            403: {
                headers: {
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description as for GET, without the Error body */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    deletePlant: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The standalone sandbox only (the msw handlers ignore it), with a
                 *     valid token; Prism's convention (RFC 7240). `delay=<ms>` holds the
                 *     answer that long (at most 30,000 ms). `code=<status>` answers that
                 *     status with the Error body (and the headers the contract requires for
                 *     it) instead of running the operation; it must be a status from 400 to
                 *     599 that this operation declares: any other `code` is a 400 naming
                 *     the ones it declares, and the operation does not run. A fault rule
                 *     (the sandbox-control API) answers any status. Applied preferences
                 *     come back in `Preference-Applied`; others are ignored.
                 */
                Prefer?: components["parameters"]["Prefer"];
            };
            path: {
                /**
                 * @description ID of the plant in the caller's tenant: an optional `-` followed by
                 *     decimal digits, within the range JavaScript represents exactly.
                 */
                id: components["parameters"]["id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description plant deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["StorageUnavailable"];
        };
    };
}
