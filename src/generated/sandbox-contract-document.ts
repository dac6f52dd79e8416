// Generated from contracts/sandbox.openapi.yaml by contracts/codegen.ts. Do not edit.
/** contracts/sandbox.openapi.yaml as data, its references into contracts/openapi.yaml resolved: what GET /__sandbox/openapi.json serves. */
export const sandboxContractDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Plant Store sandbox control API",
    "version": "1.0.0",
    "description": "The control API of plant-store-mock's sandbox, mounted at `/__sandbox`:\nprovision and delete tenants, put a tenant back to how it started, read\nand clear its request journal, make its requests fail on purpose (fault\nrules), read its plants with their ids, and ask whether the sandbox is up\nand ready. Served by every sandbox at `GET /__sandbox/openapi.json`.\n\nAuth: provisioning needs the sandbox's admin key in `X-Admin-Key` when the\nsandbox was started with one (`--admin-key`); everything a tenant owns is\ncontrolled with the tenant's own bearer token, the same tokens as the\nPlant Store API (`contracts/openapi.yaml`): reading needs `plants:read`,\nchanging `plants:write`. A tenant sees and changes only what is its own.\n\nEvery non-2xx answer carries the Plant Store's `Error` body, whose `error`\nfield is the HTTP status. A path below `/__sandbox` that is not listed here\nanswers 404 (`#/components/responses/NotFound`); a listed path asked with\na method it does not have answers 405 with `Allow` naming the methods\nlisted for it, HEAD right after GET\n(`#/components/responses/MethodNotAllowed`). A listed path without\nparameters answers the same with one trailing slash\n(`/__sandbox/faults/`). Every path with a GET\nanswers HEAD as its GET, without the body: `contracts/codegen.ts` derives\neach such HEAD operation from its GET (`head` and the GET's operationId,\ne.g. `headListRequests`: the same parameters, security and statuses, no\nbody), so the document served at `/__sandbox/openapi.json` declares them.\nBodies and query strings are checked strictly, on every operation: an\nunknown field or query parameter is a 400 naming it, and so is a body\nsent to an operation that declares none (a `Content-Length` above 0, or\nany `Transfer-Encoding`).\n\nBrowsers: CORS is offered only to the origins the sandbox lists\n(`--cors-origins`), never `*`. A request other than GET or HEAD that comes\nfrom any other web origin (an `Origin` header that is neither listed nor\nthe sandbox's own) is refused with 403 before anything runs\n(`#/components/responses/ForeignOrigin`), whatever its path; so are its\npreflights (`OPTIONS`, answered by the CORS layer: 204 for a listed\norigin). A request, GET and HEAD included, that claims to come from a\npage of a host name that is not one of the sandbox's own (an `Origin`\nequal to its `Host`), or that came in on a loopback address with such a\n`Host` whether it has an `Origin` or not, is taken for a DNS rebinding and\nrefused with 403 before anything runs (`#/components/responses/ForeignHost`),\nwhatever its path.\n\nAny path may answer 503 with `Retry-After` when the part of the sandbox\nthat serves it, loaded on its first request, could not be loaded (its\nfiles were rebuilt or removed under a running sandbox): nothing ran, and\nthe next request tries again (`#/components/responses/NotLoaded`).\n",
    "license": {
      "name": "MIT",
      "url": "https://opensource.org/licenses/MIT"
    }
  },
  "servers": [
    {
      "url": "http://127.0.0.1:4010",
      "description": "The standalone sandbox (`npm start`)."
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "paths": {
    "/__sandbox/tenants": {
      "post": {
        "operationId": "provisionTenant",
        "summary": "Provisions a fresh, isolated tenant with its own tokens.",
        "description": "A new tenant with a read and a write token: seeded with a count of\nplants (from `seed`), or holding exactly the given plants (what a reset\nreturns to). With `ttlSeconds` its tokens stop working after that time\nand it is removed. At the sandbox's `--max-tenants`, a new tenant\ntakes the place of the least recently used idle one (unused for 10\nminutes); when none is idle the answer is 503 with `Retry-After`.\nWithout an admin key, provisioning has a rate (10 tenants a second per\nclient address, 20 in all, after a burst; `--provision-rate`,\n`--provision-rate-total`): past it the answer is 429 with\n`Retry-After`. The body is optional (empty means all defaults); when\ngiven it must be `application/json`, at most 64 KiB.\n",
        "security": [
          {
            "adminKey": []
          },
          {}
        ],
        "x-required-scopes": [],
        "requestBody": {
          "required": false,
          "x-max-body-bytes": 65536,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/TenantRecipe"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The tenant, its tokens and what it starts with.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ProvisionedTenant"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "description": "The sandbox has an admin key and `X-Admin-Key` is missing or wrong\n(compared in constant time).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/AdminKeyChallenge"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ForeignOrigin"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "description": "Tenants are being provisioned faster than the sandbox's rate (from\nthis client address, or in all), or this client address already\nholds its share of the provisioned tenants (`--client-share` of\n`--max-tenants`), every one of them used within the idle window;\nnothing was made. Try again after `Retry-After` seconds. Never\nunder an admin key.\n",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "$ref": "#/components/responses/TenantsUnavailable"
          },
          "507": {
            "$ref": "#/components/responses/SandboxFull"
          }
        }
      }
    },
    "/__sandbox/tenants/{id}": {
      "delete": {
        "operationId": "deleteTenant",
        "summary": "Deletes a provisioned tenant; its tokens stop working at once.",
        "description": "Only with the tenant's own write token, and only for a provisioned\ntenant: another tenant's id is a 404, a tenant of the sandbox's world\n(`acme`, …) a 403.\n",
        "security": [
          {
            "bearerAuth": [
              "plants:write"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:write"
        ],
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The tenant id, as provisioning answered it (`t_…`).",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "204": {
            "description": "The tenant is gone."
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "description": "The token lacks `plants:write` (with its `insufficient_scope`\nchallenge), the tenant belongs to the sandbox's world and cannot\nbe deleted, or the request comes from a web origin the sandbox\ndoes not list.\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/OptionalBearerChallenge"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "404": {
            "description": "The id is not the token's own tenant.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "$ref": "#/components/responses/StorageUnavailable"
          }
        }
      }
    },
    "/__sandbox/reset": {
      "post": {
        "operationId": "resetTenant",
        "summary": "Puts the caller's tenant back to how it started.",
        "description": "Its plants back to its seeded (or exact) ones; its journal and fault\nrules emptied. It takes no body: one is a 400.\n",
        "security": [
          {
            "bearerAuth": [
              "plants:write"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:write"
        ],
        "responses": {
          "204": {
            "description": "The tenant is back to how it started."
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "503": {
            "$ref": "#/components/responses/StorageUnavailable"
          }
        }
      }
    },
    "/__sandbox/requests": {
      "get": {
        "operationId": "listRequests",
        "summary": "The caller's journaled requests that match, with their count.",
        "description": "The tenant's recent exchanges with the Plant Store API (bounded per\ntenant), `Authorization` redacted: `count` matching entries, the\n`limit` most recent of them, oldest first. Each parameter at most once.\n",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "parameters": [
          {
            "name": "method",
            "in": "query",
            "description": "Only requests with this method (any case): any method the journal\ncan hold, routed or not (`PUT` is journaled as a 405).\n",
            "schema": {
              "$ref": "#/components/schemas/JournalMethod"
            }
          },
          {
            "name": "path",
            "in": "query",
            "description": "Only requests to this path as sent (`/plants/42`, or `/nope`,\nwhich is journaled as a 404), or to any path routed to this\ncontract template (`/plants/{id}`).\n",
            "schema": {
              "$ref": "#/components/schemas/JournalPath"
            }
          },
          {
            "name": "status",
            "in": "query",
            "description": "An exact status (`503`), a class (`5xx`), or `0` for a transport fault.",
            "schema": {
              "type": "string",
              "pattern": "^(?:0|[1-5][0-9][0-9]|[1-5]xx)$"
            }
          },
          {
            "name": "since",
            "in": "query",
            "description": "Entries answered at or after this instant.",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          },
          {
            "name": "until",
            "in": "query",
            "description": "Entries answered before this instant (none when it is not after `since`).",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          },
          {
            "name": "limit",
            "in": "query",
            "description": "At most this many entries, the most recent ones.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The matching entries.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/JournalAnswer"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      },
      "delete": {
        "operationId": "clearRequests",
        "summary": "Empties the caller's journal; its data stays.",
        "security": [
          {
            "bearerAuth": [
              "plants:write"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:write"
        ],
        "responses": {
          "204": {
            "description": "The journal is empty."
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      },
      "head": {
        "operationId": "headListRequests",
        "summary": "The status and headers of GET /__sandbox/requests, without the body.",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "parameters": [
          {
            "name": "method",
            "in": "query",
            "description": "Only requests with this method (any case): any method the journal\ncan hold, routed or not (`PUT` is journaled as a 405).\n",
            "schema": {
              "$ref": "#/components/schemas/JournalMethod"
            }
          },
          {
            "name": "path",
            "in": "query",
            "description": "Only requests to this path as sent (`/plants/42`, or `/nope`,\nwhich is journaled as a 404), or to any path routed to this\ncontract template (`/plants/{id}`).\n",
            "schema": {
              "$ref": "#/components/schemas/JournalPath"
            }
          },
          {
            "name": "status",
            "in": "query",
            "description": "An exact status (`503`), a class (`5xx`), or `0` for a transport fault.",
            "schema": {
              "type": "string",
              "pattern": "^(?:0|[1-5][0-9][0-9]|[1-5]xx)$"
            }
          },
          {
            "name": "since",
            "in": "query",
            "description": "Entries answered at or after this instant.",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          },
          {
            "name": "until",
            "in": "query",
            "description": "Entries answered before this instant (none when it is not after `since`).",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          },
          {
            "name": "limit",
            "in": "query",
            "description": "At most this many entries, the most recent ones.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          }
        ],
        "responses": {
          "200": {
            "description": "As for GET, without the body: The matching entries."
          },
          "400": {
            "description": "As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field."
          },
          "401": {
            "description": "As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge\nwithout an error), or the token is unknown, expired or malformed\n(`error=\"invalid_token\"`).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/BearerChallenge"
              }
            }
          },
          "403": {
            "description": "As for GET, without the body: The token lacks the scope the operation needs\n(`error=\"insufficient_scope\"`); or, on a sandbox with an admin key, it\nis a token of the shared fixture world, which is read-only there\n(the same challenge); or, for a request other than GET or HEAD, its\nweb origin is not one the sandbox lists (no challenge).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/OptionalBearerChallenge"
              }
            }
          }
        }
      }
    },
    "/__sandbox/faults": {
      "get": {
        "operationId": "listFaults",
        "summary": "The caller's fault rules, in the order they fire.",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "responses": {
          "200": {
            "description": "The rules with their counters.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FaultRuleList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      },
      "post": {
        "operationId": "addFault",
        "summary": "Adds a fault rule after the caller's others.",
        "description": "The first rule in force that matches a request of the tenant fires\n(creation order) and answers instead of the store. A tenant holds a\nbounded number of rules (50 by default): adding one more first drops\nits spent and expired ones, and is a 409 when none is.\n",
        "security": [
          {
            "bearerAuth": [
              "plants:write"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:write"
        ],
        "requestBody": {
          "required": true,
          "x-max-body-bytes": 65536,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/FaultRuleInput"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The rule with its id and counters.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FaultRule"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "409": {
            "description": "The tenant holds its maximum of rules still in force.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "503": {
            "$ref": "#/components/responses/StorageUnavailable"
          }
        }
      },
      "delete": {
        "operationId": "clearFaults",
        "summary": "Deletes all the caller's fault rules.",
        "security": [
          {
            "bearerAuth": [
              "plants:write"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:write"
        ],
        "responses": {
          "204": {
            "description": "The tenant has no rules."
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "503": {
            "$ref": "#/components/responses/StorageUnavailable"
          }
        }
      },
      "head": {
        "operationId": "headListFaults",
        "summary": "The status and headers of GET /__sandbox/faults, without the body.",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "responses": {
          "200": {
            "description": "As for GET, without the body: The rules with their counters."
          },
          "400": {
            "description": "As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field."
          },
          "401": {
            "description": "As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge\nwithout an error), or the token is unknown, expired or malformed\n(`error=\"invalid_token\"`).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/BearerChallenge"
              }
            }
          },
          "403": {
            "description": "As for GET, without the body: The token lacks the scope the operation needs\n(`error=\"insufficient_scope\"`); or, on a sandbox with an admin key, it\nis a token of the shared fixture world, which is read-only there\n(the same challenge); or, for a request other than GET or HEAD, its\nweb origin is not one the sandbox lists (no challenge).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/OptionalBearerChallenge"
              }
            }
          }
        }
      }
    },
    "/__sandbox/faults/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The rule id, as adding it answered (`f_…`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getFault",
        "summary": "One of the caller's fault rules.",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "responses": {
          "200": {
            "description": "The rule with its counters.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FaultRule"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NoSuchRule"
          }
        }
      },
      "delete": {
        "operationId": "deleteFault",
        "summary": "Deletes one of the caller's fault rules.",
        "security": [
          {
            "bearerAuth": [
              "plants:write"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:write"
        ],
        "responses": {
          "204": {
            "description": "The rule is gone."
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NoSuchRule"
          },
          "503": {
            "$ref": "#/components/responses/StorageUnavailable"
          }
        }
      },
      "head": {
        "operationId": "headGetFault",
        "summary": "The status and headers of GET /__sandbox/faults/{id}, without the body.",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "responses": {
          "200": {
            "description": "As for GET, without the body: The rule with its counters."
          },
          "400": {
            "description": "As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field."
          },
          "401": {
            "description": "As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge\nwithout an error), or the token is unknown, expired or malformed\n(`error=\"invalid_token\"`).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/BearerChallenge"
              }
            }
          },
          "403": {
            "description": "As for GET, without the body: The token lacks the scope the operation needs\n(`error=\"insufficient_scope\"`); or, on a sandbox with an admin key, it\nis a token of the shared fixture world, which is read-only there\n(the same challenge); or, for a request other than GET or HEAD, its\nweb origin is not one the sandbox lists (no challenge).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/OptionalBearerChallenge"
              }
            }
          },
          "404": {
            "description": "As for GET, without the body: The caller's tenant has no fault rule with this id."
          }
        }
      }
    },
    "/__sandbox/plants": {
      "get": {
        "operationId": "listTenantPlants",
        "summary": "The caller's plants with their ids, oldest first (not journaled).",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "description": "The maximum number of results to return: decimal digits only, 0 to\n2147483647. Absent means all plants; 0 returns an empty array.\nAnything else (empty, signed, fractional, exponent, hex, spaces,\nrepeated, above int32) is a 400.\n",
            "required": false,
            "schema": {
              "type": "integer",
              "format": "int32",
              "minimum": 0,
              "maximum": 2147483647
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The plants, cut to `limit`, and how many there are in all.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TenantPlants"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      },
      "head": {
        "operationId": "headListTenantPlants",
        "summary": "The status and headers of GET /__sandbox/plants, without the body.",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "description": "The maximum number of results to return: decimal digits only, 0 to\n2147483647. Absent means all plants; 0 returns an empty array.\nAnything else (empty, signed, fractional, exponent, hex, spaces,\nrepeated, above int32) is a 400.\n",
            "required": false,
            "schema": {
              "type": "integer",
              "format": "int32",
              "minimum": 0,
              "maximum": 2147483647
            }
          }
        ],
        "responses": {
          "200": {
            "description": "As for GET, without the body: The plants, cut to `limit`, and how many there are in all."
          },
          "400": {
            "description": "As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field."
          },
          "401": {
            "description": "As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge\nwithout an error), or the token is unknown, expired or malformed\n(`error=\"invalid_token\"`).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/BearerChallenge"
              }
            }
          },
          "403": {
            "description": "As for GET, without the body: The token lacks the scope the operation needs\n(`error=\"insufficient_scope\"`); or, on a sandbox with an admin key, it\nis a token of the shared fixture world, which is read-only there\n(the same challenge); or, for a request other than GET or HEAD, its\nweb origin is not one the sandbox lists (no challenge).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/OptionalBearerChallenge"
              }
            }
          }
        }
      }
    },
    "/__sandbox/coverage": {
      "get": {
        "operationId": "tenantCoverage",
        "summary": "Which of the Plant Store contract's answers the caller's requests provoked.",
        "description": "The caller tenant's contract coverage, counted since its journal was\nlast cleared: each operation's declared statuses with their hits\n(and, for a status with several causes, hits per cause), and the\nanswers outside the contract. A 404 when the sandbox counts none.\n",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "responses": {
          "200": {
            "description": "The tenant's coverage.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CoverageAnswer"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "description": "This sandbox counts no coverage.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "head": {
        "operationId": "headTenantCoverage",
        "summary": "The status and headers of GET /__sandbox/coverage, without the body.",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "responses": {
          "200": {
            "description": "As for GET, without the body: The tenant's coverage."
          },
          "400": {
            "description": "As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field."
          },
          "401": {
            "description": "As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge\nwithout an error), or the token is unknown, expired or malformed\n(`error=\"invalid_token\"`).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/BearerChallenge"
              }
            }
          },
          "403": {
            "description": "As for GET, without the body: The token lacks the scope the operation needs\n(`error=\"insufficient_scope\"`); or, on a sandbox with an admin key, it\nis a token of the shared fixture world, which is read-only there\n(the same challenge); or, for a request other than GET or HEAD, its\nweb origin is not one the sandbox lists (no challenge).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/OptionalBearerChallenge"
              }
            }
          },
          "404": {
            "description": "As for GET, without the body: This sandbox counts no coverage."
          }
        }
      }
    },
    "/__sandbox/health": {
      "get": {
        "operationId": "health",
        "summary": "Liveness: the process is up.",
        "security": [],
        "x-required-scopes": [],
        "responses": {
          "200": {
            "description": "Up.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Health"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          }
        }
      },
      "head": {
        "operationId": "headHealth",
        "summary": "The status and headers of GET /__sandbox/health, without the body.",
        "security": [],
        "x-required-scopes": [],
        "responses": {
          "200": {
            "description": "As for GET, without the body: Up."
          },
          "400": {
            "description": "As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field."
          }
        }
      }
    },
    "/__sandbox/ready": {
      "get": {
        "operationId": "ready",
        "summary": "Readiness, for a load balancer.",
        "description": "200 while the sandbox can serve; 503 with `Retry-After` while it\ncannot: its world failed to load, or a cluster replica has not reached\nRedis yet.\n",
        "security": [],
        "x-required-scopes": [],
        "responses": {
          "200": {
            "description": "Ready, and where it keeps its state.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Readiness"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "503": {
            "description": "Not ready; the Error body says why.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/NotReady"
                }
              }
            }
          }
        }
      },
      "head": {
        "operationId": "headReady",
        "summary": "The status and headers of GET /__sandbox/ready, without the body.",
        "security": [],
        "x-required-scopes": [],
        "responses": {
          "200": {
            "description": "As for GET, without the body: Ready, and where it keeps its state."
          },
          "400": {
            "description": "As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field."
          },
          "503": {
            "description": "As for GET, without the body: Not ready; the Error body says why.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            }
          }
        }
      }
    },
    "/__sandbox/events": {
      "get": {
        "operationId": "inspectorEvents",
        "summary": "The live inspector's stream of the caller's exchanges (server-sent events).",
        "description": "Authorised by the tenant's token in `Authorization`, never in the URL.\nEach event's `data` is one line of JSON; `x-events` of the 200 answer\ngives each event's name and the schema of its data. It opens with\n`hello`, `plants`, `faults` and (when the sandbox counts coverage)\n`coverage`, then sends `plants`, `faults`, `coverage`, `exchange` and\n`skipped` as they change, batched. It ends with `gone` (the tenant\nwas removed), `expired` (the token expired) or `released` (a cluster\nreplica handed the tenant to another, or the sandbox is stopping:\nreconnect). A tenant may hold\n4 streams open, the sandbox 100; more are a 429.\n",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "responses": {
          "200": {
            "description": "The stream, open until the client or the tenant goes.",
            "x-events": {
              "hello": {
                "description": "The stream is open for this tenant, with the token's scopes.",
                "schema": {
                  "type": "object",
                  "required": [
                    "tenant",
                    "scopes"
                  ],
                  "properties": {
                    "tenant": {
                      "type": "string"
                    },
                    "scopes": {
                      "type": "array",
                      "items": {
                        "enum": [
                          "plants:read",
                          "plants:write"
                        ]
                      }
                    }
                  }
                }
              },
              "plants": {
                "description": "The tenant's plants (the first 200) and how many it holds.",
                "schema": {
                  "type": "object",
                  "required": [
                    "count",
                    "plants"
                  ],
                  "properties": {
                    "count": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "plants": {
                      "type": "array",
                      "maxItems": 200,
                      "items": {
                        "$ref": "#/components/schemas/Plant"
                      }
                    }
                  }
                }
              },
              "faults": {
                "description": "The tenant's fault rules, as `GET /__sandbox/faults` lists them.",
                "schema": {
                  "type": "object",
                  "required": [
                    "faults"
                  ],
                  "properties": {
                    "faults": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/FaultRule"
                      }
                    }
                  }
                }
              },
              "coverage": {
                "description": "The tenant's contract coverage, as `GET /__sandbox/coverage` answers it without `tenant`.",
                "schema": {
                  "$ref": "#/components/schemas/CoverageReport"
                }
              },
              "exchange": {
                "description": "One exchange of the tenant, as the journal keeps it.",
                "schema": {
                  "$ref": "#/components/schemas/JournalEntry"
                }
              },
              "skipped": {
                "description": "How many exchanges this stream let go (it was too slow to take them).",
                "schema": {
                  "type": "object",
                  "required": [
                    "count"
                  ],
                  "properties": {
                    "count": {
                      "type": "integer",
                      "minimum": 1
                    }
                  }
                }
              },
              "gone": {
                "description": "The tenant was removed; the stream ends.",
                "schema": {
                  "$ref": "#/components/schemas/TenantOnly"
                }
              },
              "expired": {
                "description": "The token expired; the stream ends.",
                "schema": {
                  "$ref": "#/components/schemas/TenantOnly"
                }
              },
              "released": {
                "description": "A cluster replica handed the tenant to another, or the sandbox is stopping; the stream ends (reconnect).",
                "schema": {
                  "$ref": "#/components/schemas/TenantOnly"
                }
              }
            },
            "content": {
              "text/event-stream": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "429": {
            "description": "Too many open streams (for the tenant, or in all); close one first.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "head": {
        "operationId": "headInspectorEvents",
        "summary": "The status and headers of GET /__sandbox/events, without the body.",
        "security": [
          {
            "bearerAuth": [
              "plants:read"
            ]
          }
        ],
        "x-required-scopes": [
          "plants:read"
        ],
        "responses": {
          "200": {
            "description": "As for GET, without the body: The stream, open until the client or the tenant goes."
          },
          "400": {
            "description": "As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field."
          },
          "401": {
            "description": "As for GET, without the body: The `Authorization` header is missing or not Bearer (a challenge\nwithout an error), or the token is unknown, expired or malformed\n(`error=\"invalid_token\"`).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/BearerChallenge"
              }
            }
          },
          "403": {
            "description": "As for GET, without the body: The token lacks the scope the operation needs\n(`error=\"insufficient_scope\"`); or, on a sandbox with an admin key, it\nis a token of the shared fixture world, which is read-only there\n(the same challenge); or, for a request other than GET or HEAD, its\nweb origin is not one the sandbox lists (no challenge).\n",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/OptionalBearerChallenge"
              }
            }
          },
          "429": {
            "description": "As for GET, without the body: Too many open streams (for the tenant, or in all); close one first.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/RetryAfter"
              }
            }
          }
        }
      }
    },
    "/__sandbox/openapi.json": {
      "get": {
        "operationId": "sandboxContract",
        "summary": "This document, as JSON.",
        "security": [],
        "x-required-scopes": [],
        "responses": {
          "200": {
            "description": "The sandbox control API's OpenAPI document.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "openapi",
                    "info",
                    "paths"
                  ]
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          }
        }
      },
      "head": {
        "operationId": "headSandboxContract",
        "summary": "The status and headers of GET /__sandbox/openapi.json, without the body.",
        "security": [],
        "x-required-scopes": [],
        "responses": {
          "200": {
            "description": "As for GET, without the body: The sandbox control API's OpenAPI document."
          },
          "400": {
            "description": "As for GET, without the body: A parameter or the body is invalid, or unknown; the message names the field."
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer <token>`: a tenant's own token, as for the\nPlant Store API. `plants:read` reads what the tenant owns,\n`plants:write` changes it. Each operation names its scopes in its\nsecurity requirement and in `x-required-scopes`.\n",
        "x-scopes": {
          "plants:read": "Read the caller tenant's journal, fault rules, plants and live stream.",
          "plants:write": "Reset or delete the caller's tenant, clear its journal, add and delete its fault rules."
        }
      },
      "adminKey": {
        "type": "apiKey",
        "in": "header",
        "name": "X-Admin-Key",
        "description": "The sandbox's admin key (`--admin-key`), needed to provision tenants\nwhen the sandbox has one; without one, provisioning is open.\n"
      }
    },
    "headers": {
      "RetryAfter": {
        "description": "Seconds to wait before trying again.",
        "required": true,
        "schema": {
          "type": "integer",
          "minimum": 0
        }
      },
      "BearerChallenge": {
        "description": "RFC 6750 challenge, e.g. `Bearer realm=\"plant-store\", error=\"invalid_token\"`.",
        "required": true,
        "schema": {
          "type": "string",
          "pattern": "^Bearer realm=\"plant-store\"(, error=\"(invalid_token|insufficient_scope)\")?$"
        }
      },
      "OptionalBearerChallenge": {
        "description": "RFC 6750 challenge, present when the token lacks the scope or its\ntenant is read-only; absent when the request's web origin is refused.\n",
        "required": false,
        "schema": {
          "type": "string",
          "pattern": "^Bearer realm=\"plant-store\", error=\"insufficient_scope\"$"
        }
      },
      "AdminKeyChallenge": {
        "description": "The admin key challenge.",
        "required": true,
        "schema": {
          "type": "string",
          "const": "X-Admin-Key realm=\"plant-store-sandbox\""
        }
      },
      "Allow": {
        "description": "The methods the path has, e.g. `GET, POST, DELETE`.",
        "required": true,
        "schema": {
          "type": "string",
          "pattern": "^[A-Z]+(, [A-Z]+)*$"
        }
      }
    },
    "responses": {
      "BadRequest": {
        "description": "A parameter or the body is invalid, or unknown; the message names the field.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Unauthorized": {
        "description": "The `Authorization` header is missing or not Bearer (a challenge\nwithout an error), or the token is unknown, expired or malformed\n(`error=\"invalid_token\"`).\n",
        "headers": {
          "WWW-Authenticate": {
            "$ref": "#/components/headers/BearerChallenge"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Forbidden": {
        "description": "The token lacks the scope the operation needs\n(`error=\"insufficient_scope\"`); or, on a sandbox with an admin key, it\nis a token of the shared fixture world, which is read-only there\n(the same challenge); or, for a request other than GET or HEAD, its\nweb origin is not one the sandbox lists (no challenge).\n",
        "headers": {
          "WWW-Authenticate": {
            "$ref": "#/components/headers/OptionalBearerChallenge"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "ForeignOrigin": {
        "description": "The request (not a GET or HEAD) comes from a web origin the sandbox\ndoes not list in `--cors-origins`; nothing ran.\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "ForeignHost": {
        "description": "The request claims to come from a page of a host name that is not\none of the sandbox's own (`--allowed-host`), or came in on a loopback\naddress under such a `Host`: a DNS rebinding; nothing ran.\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "NotLoaded": {
        "description": "The part of the sandbox that serves this path could not be loaded\n(its files changed under the running sandbox); nothing ran. The next\nrequest tries again.\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/RetryAfter"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "NotFound": {
        "description": "No such path below `/__sandbox`.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "NoSuchRule": {
        "description": "The caller's tenant has no fault rule with this id.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "MethodNotAllowed": {
        "description": "The path does not have this method; `Allow` names the ones it has.",
        "headers": {
          "Allow": {
            "$ref": "#/components/headers/Allow"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "PayloadTooLarge": {
        "description": "The request body is larger than 64 KiB.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "The request body is not `application/json` (only a UTF-8 charset parameter is allowed).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "TenantsUnavailable": {
        "description": "The sandbox holds its maximum of provisioned tenants, all used in the\nlast 10 minutes (none is evicted while in use), or a cluster replica\ncannot store the tenant; nothing changed. Try again after\n`Retry-After` seconds.\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/RetryAfter"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "StorageUnavailable": {
        "description": "A sandbox that keeps its state in durable storage (replicas with\n`--redis-url`, or `--state-file` on a full or failing disk) cannot\nstore the write right now, or (a replica with `--redis-url` whose\nRedis is unreachable) cannot load the caller's tenant, not yet\nserved by that replica, to answer a read; nothing changed. Try again\nafter `Retry-After` seconds. A sandbox without durable storage never\nanswers it.\n",
        "x-plant-store-decision": true,
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/RetryAfter"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "SandboxFull": {
        "description": "The new tenant's plants do not fit the memory all tenants' plants may\ntake together (`--plant-bytes-total`, counted from their strings),\nonce tenants idle for the idle window were evicted, or this client's\nshare of it (`--client-share`); nothing changed. Delete tenants or\nplants first.\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      }
    },
    "schemas": {
      "Error": {
        "type": "object",
        "required": [
          "error",
          "message"
        ],
        "properties": {
          "error": {
            "description": "The HTTP status of the answer.",
            "type": "integer",
            "format": "int32"
          },
          "message": {
            "description": "A human sentence saying what went wrong.",
            "type": "string"
          }
        }
      },
      "Plant": {
        "description": "A plant with its id, as the sandbox stores it.",
        "type": "object",
        "required": [
          "id",
          "name"
        ],
        "properties": {
          "id": {
            "description": "Identification number of the plant, unique within the caller's tenant.",
            "type": "integer",
            "format": "int64",
            "minimum": -9007199254740991,
            "maximum": 9007199254740991
          },
          "name": {
            "description": "Name of the plant",
            "type": "string",
            "minLength": 1,
            "maxLength": 256
          },
          "tag": {
            "description": "Tag to specify the type; omitted when the plant has none.",
            "type": "string",
            "maxLength": 256
          }
        }
      },
      "RecipePlant": {
        "description": "A plant a tenant starts with; a `null` tag counts as absent.",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "name"
        ],
        "properties": {
          "id": {
            "description": "Identification number of the plant, unique within the caller's tenant.",
            "type": "integer",
            "format": "int64",
            "minimum": -9007199254740991,
            "maximum": 9007199254740991
          },
          "name": {
            "description": "Name of the plant",
            "type": "string",
            "minLength": 1,
            "maxLength": 256
          },
          "tag": {
            "oneOf": [
              {
                "description": "Tag to specify the type; omitted when the plant has none.",
                "type": "string",
                "maxLength": 256
              },
              {
                "type": "null"
              }
            ]
          }
        }
      },
      "TenantRecipe": {
        "description": "What a provisioned tenant starts with; every field optional.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "plants": {
            "description": "How many seeded plants (default: the sandbox's, 5), at most the\ntenant's quota; or its exact plants, oldest first, with distinct\nids, at most the quota.\n",
            "oneOf": [
              {
                "type": "integer",
                "minimum": 0
              },
              {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/RecipePlant"
                }
              }
            ]
          },
          "seed": {
            "description": "The faker seed of a count of plants (default random).",
            "type": "integer",
            "minimum": -2147483647,
            "maximum": 2147483647
          },
          "ttlSeconds": {
            "description": "Seconds until its tokens stop working and it is removed.",
            "type": "integer",
            "minimum": 1,
            "maximum": 86400
          },
          "quota": {
            "description": "How many plants it may hold, at most the sandbox's quota (its default, 10,000 unless configured).",
            "type": "integer",
            "minimum": 1
          }
        }
      },
      "ProvisionedTenant": {
        "type": "object",
        "required": [
          "tenant",
          "tokens",
          "plants"
        ],
        "properties": {
          "tenant": {
            "description": "Its id (`t_…`).",
            "type": "string"
          },
          "tokens": {
            "type": "object",
            "required": [
              "read",
              "write"
            ],
            "properties": {
              "read": {
                "description": "A token with `plants:read`.",
                "type": "string"
              },
              "write": {
                "description": "A token with `plants:read` and `plants:write`.",
                "type": "string"
              }
            }
          },
          "plants": {
            "description": "How many plants it starts with.",
            "type": "integer",
            "minimum": 0
          },
          "seed": {
            "description": "The seed its plants were generated from; absent with exact plants.",
            "type": "integer"
          },
          "expiresAt": {
            "description": "When its tokens stop working; absent without a time-to-live.",
            "type": "string",
            "format": "date-time"
          },
          "quota": {
            "description": "How many plants it may hold.",
            "type": "integer",
            "minimum": 0
          }
        }
      },
      "JournalMethod": {
        "description": "An HTTP method, in any case, as requests are journaled with it: any\nmethod the sandbox's HTTP server takes, routed or not (`GET`, `PUT`,\n`PATCH`, `OPTIONS`, `PROPFIND`, `M-SEARCH`, …).\n",
        "type": "string",
        "maxLength": 32,
        "pattern": "^[A-Za-z][A-Za-z-]*$"
      },
      "RuleMethod": {
        "description": "A method the Plant Store contract has (`HEAD` wherever it has `GET`), in any case.",
        "type": "string",
        "pattern": "^(?:[Gg][Ee][Tt]|[Hh][Ee][Aa][Dd]|[Pp][Oo][Ss][Tt]|[Dd][Ee][Ll][Ee][Tt][Ee])$"
      },
      "Method": {
        "description": "A method the Plant Store contract has, in upper case.",
        "type": "string",
        "enum": [
          "GET",
          "HEAD",
          "POST",
          "DELETE"
        ]
      },
      "JournalPath": {
        "description": "A path as sent (`/plants/42`, `/nope`: still percent-encoded, no\nquery), or one of the Plant Store contract's templates (such as\n`/plants/{id}`), which matches every path routed to it. At most 256\ncharacters.\n",
        "type": "string",
        "maxLength": 256,
        "anyOf": [
          {
            "enum": [
              "/plants",
              "/plants/{id}"
            ]
          },
          {
            "pattern": "^/[^\\s?#{}]*$"
          }
        ]
      },
      "RulePath": {
        "description": "A path the Plant Store contract routes: one of its templates\n(such as `/plants/{id}`), which matches every path routed to it, or\na literal path routed to one (`/plants/42`, `/plants/`), matched\nexactly. At most 256 characters. A rule for any other path could\nnever fire.\n",
        "type": "string",
        "maxLength": 256,
        "pattern": "^(?:/plants/?|/plants/\\{id\\}|/plants/[^/\\s?#{}:][^/\\s?#{}]*)$"
      },
      "FaultRuleFields": {
        "type": "object",
        "properties": {
          "path": {
            "$ref": "#/components/schemas/RulePath"
          },
          "status": {
            "description": "Answer this status with the contract's Error body (a 401 or 403 with its challenge).",
            "type": "integer",
            "minimum": 400,
            "maximum": 599
          },
          "message": {
            "description": "The Error body's message of a `status` answer.",
            "type": "string",
            "minLength": 1,
            "maxLength": 500
          },
          "fault": {
            "description": "Fail the transport: `reset` (a TCP reset), `empty` (a close before\nany byte), `truncated` (headers and half the promised body), or\nanswer `malformed` JSON (a 200 cut in half).\n",
            "type": "string",
            "enum": [
              "reset",
              "empty",
              "truncated",
              "malformed"
            ]
          },
          "delayMs": {
            "description": "Wait this long, then answer (the real answer, or the rule's).",
            "type": "integer",
            "minimum": 1,
            "maximum": 30000
          },
          "times": {
            "description": "Fire for the next this many matching requests.",
            "type": "integer",
            "minimum": 1,
            "maximum": 10000
          },
          "windowMs": {
            "description": "Fire until this long after it was added.",
            "type": "integer",
            "minimum": 1,
            "maximum": 86400000
          }
        }
      },
      "FaultRuleInput": {
        "description": "A fault rule as a test writes it. It matches the tenant's requests by\n`method` and `path` (both optional: any) and needs `status`, `fault` or\n`delayMs`; `status` and `fault` exclude each other, and `message` goes\nonly with `status`. With both `method` and `path`, the method is one\nthe contract has at that path (one `if`/`then` per path). Without\n`times` or `windowMs` it fires until deleted.\n",
        "allOf": [
          {
            "$ref": "#/components/schemas/FaultRuleFields"
          },
          {
            "type": "object",
            "properties": {
              "method": {
                "$ref": "#/components/schemas/RuleMethod"
              }
            }
          },
          {
            "if": {
              "required": [
                "method",
                "path"
              ],
              "properties": {
                "path": {
                  "pattern": "^/plants/?$"
                }
              }
            },
            "then": {
              "properties": {
                "method": {
                  "pattern": "^(?:[Gg][Ee][Tt]|[Hh][Ee][Aa][Dd]|[Pp][Oo][Ss][Tt])$"
                }
              }
            }
          },
          {
            "if": {
              "required": [
                "method",
                "path"
              ],
              "properties": {
                "path": {
                  "pattern": "^/plants/[^/]+$"
                }
              }
            },
            "then": {
              "properties": {
                "method": {
                  "pattern": "^(?:[Dd][Ee][Ll][Ee][Tt][Ee])$"
                }
              }
            }
          },
          {
            "anyOf": [
              {
                "required": [
                  "status"
                ]
              },
              {
                "required": [
                  "fault"
                ]
              },
              {
                "required": [
                  "delayMs"
                ]
              }
            ]
          },
          {
            "not": {
              "required": [
                "status",
                "fault"
              ]
            }
          },
          {
            "dependentRequired": {
              "message": [
                "status"
              ]
            }
          }
        ],
        "unevaluatedProperties": false
      },
      "FaultRule": {
        "description": "A fault rule as listed, with its id and how it has fired.",
        "allOf": [
          {
            "$ref": "#/components/schemas/FaultRuleFields"
          },
          {
            "type": "object",
            "required": [
              "id",
              "createdAt",
              "fired",
              "active"
            ],
            "properties": {
              "id": {
                "description": "Its id (`f_…`).",
                "type": "string"
              },
              "method": {
                "$ref": "#/components/schemas/Method"
              },
              "createdAt": {
                "type": "string",
                "format": "date-time"
              },
              "fired": {
                "description": "How many requests it answered so far.",
                "type": "integer",
                "minimum": 0
              },
              "remaining": {
                "description": "How many more times it fires (with `times`).",
                "type": "integer",
                "minimum": 0
              },
              "expiresAt": {
                "description": "When it stops firing (with `windowMs`).",
                "type": "string",
                "format": "date-time"
              },
              "active": {
                "description": "Whether it still fires (neither spent nor expired).",
                "type": "boolean"
              }
            }
          }
        ]
      },
      "FaultRuleList": {
        "type": "object",
        "required": [
          "tenant",
          "faults"
        ],
        "properties": {
          "tenant": {
            "type": "string"
          },
          "faults": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FaultRule"
            }
          }
        }
      },
      "JournalEntry": {
        "description": "One exchange of the tenant with the Plant Store API.",
        "type": "object",
        "required": [
          "id",
          "at",
          "operation",
          "request",
          "response"
        ],
        "properties": {
          "id": {
            "description": "The request id (the client's `X-Request-Id`, or one the sandbox gave).",
            "type": "string"
          },
          "at": {
            "description": "When it was answered.",
            "type": "string",
            "format": "date-time"
          },
          "operation": {
            "description": "The Plant Store operation it was routed to; `null` for an unknown path or method.",
            "type": [
              "string",
              "null"
            ]
          },
          "request": {
            "type": "object",
            "required": [
              "method",
              "path",
              "query",
              "headers",
              "body"
            ],
            "properties": {
              "method": {
                "type": "string"
              },
              "path": {
                "description": "As sent, still percent-encoded.",
                "type": "string"
              },
              "query": {
                "description": "The raw query string without `?`.",
                "type": "string"
              },
              "headers": {
                "description": "The headers that matter to the contract; `authorization` redacted.",
                "type": "object",
                "additionalProperties": {
                  "type": "string"
                }
              },
              "body": {
                "description": "The body as text (cut to the journal's limit), or `null` when none was read.",
                "type": [
                  "string",
                  "null"
                ]
              }
            }
          },
          "response": {
            "type": "object",
            "required": [
              "status",
              "headers",
              "body"
            ],
            "properties": {
              "status": {
                "description": "The status; `0` when the transport was made to fail.",
                "type": "integer",
                "minimum": 0,
                "maximum": 599
              },
              "headers": {
                "type": "object",
                "additionalProperties": {
                  "type": "string"
                }
              },
              "body": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "fault": {
                "description": "How the transport was made to fail.",
                "type": "string",
                "enum": [
                  "reset",
                  "empty",
                  "truncated"
                ]
              },
              "reason": {
                "$ref": "#/components/schemas/ErrorReason"
              }
            }
          }
        }
      },
      "ErrorReason": {
        "description": "Why an Error answer was given, as data rather than its message's\nwording: the field and the rule of a 400, whether a 401's token was\nmissing, invalid or expired, the scope a 403 lacked. Only on answers\nthe Plant Store's rules gave (not on fault rules' or made-up answers).\n",
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "field": {
            "description": "The field of a 400 (`name`, `tag`, `id`, `limit`, `body`).",
            "type": "string"
          },
          "rule": {
            "description": "The rule it broke (`required`, `too_big`, `format`, `json`, …).",
            "type": "string"
          },
          "token": {
            "description": "A 401's token.",
            "type": "string",
            "enum": [
              "missing",
              "invalid",
              "expired"
            ]
          },
          "scope": {
            "description": "The scope a 403's token lacked.",
            "type": "string"
          }
        }
      },
      "JournalAnswer": {
        "type": "object",
        "required": [
          "tenant",
          "count",
          "dropped",
          "requests"
        ],
        "properties": {
          "tenant": {
            "type": "string"
          },
          "count": {
            "description": "How many kept entries match (before `limit`).",
            "type": "integer",
            "minimum": 0
          },
          "dropped": {
            "description": "Entries the bounded journal let go since it was last cleared.",
            "type": "integer",
            "minimum": 0
          },
          "requests": {
            "description": "The matching entries, oldest first.",
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/JournalEntry"
            }
          }
        }
      },
      "TenantPlants": {
        "type": "object",
        "required": [
          "tenant",
          "count",
          "plants"
        ],
        "properties": {
          "tenant": {
            "type": "string"
          },
          "count": {
            "description": "How many plants the tenant holds.",
            "type": "integer",
            "minimum": 0
          },
          "plants": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Plant"
            }
          }
        }
      },
      "CoverageAnswer": {
        "description": "A tenant's contract coverage.",
        "allOf": [
          {
            "$ref": "#/components/schemas/TenantOnly"
          },
          {
            "$ref": "#/components/schemas/CoverageReport"
          }
        ]
      },
      "TenantOnly": {
        "type": "object",
        "required": [
          "tenant"
        ],
        "properties": {
          "tenant": {
            "description": "The tenant's id.",
            "type": "string"
          }
        }
      },
      "CoverageReport": {
        "description": "Which of the Plant Store contract's declared answers were given, and the answers outside it.",
        "type": "object",
        "required": [
          "covered",
          "total",
          "percent",
          "operations",
          "undocumented",
          "unrouted"
        ],
        "properties": {
          "covered": {
            "description": "Declared answers (operation × status) answered at least once.",
            "type": "integer",
            "minimum": 0
          },
          "total": {
            "description": "Declared answers of the contract.",
            "type": "integer",
            "minimum": 0
          },
          "percent": {
            "description": "`covered / total` in percent, to one decimal.",
            "type": "number",
            "minimum": 0,
            "maximum": 100
          },
          "operations": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "operationId",
                "method",
                "path",
                "responses"
              ],
              "properties": {
                "operationId": {
                  "type": "string"
                },
                "method": {
                  "type": "string"
                },
                "path": {
                  "type": "string"
                },
                "responses": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": [
                      "status",
                      "hits"
                    ],
                    "properties": {
                      "status": {
                        "type": "integer"
                      },
                      "hits": {
                        "type": "integer",
                        "minimum": 0
                      },
                      "conditions": {
                        "type": "array",
                        "items": {
                          "$ref": "#/components/schemas/CoverageHits"
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "undocumented": {
            "description": "Answers with a status the operation does not declare, or a transport fault.",
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/CoverageExtra"
            }
          },
          "unrouted": {
            "description": "Requests routed to no operation (`GET 404`, `PUT 405`).",
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/CoverageExtra"
            }
          }
        }
      },
      "CoverageHits": {
        "type": "object",
        "required": [
          "condition",
          "hits"
        ],
        "properties": {
          "condition": {
            "type": "string"
          },
          "hits": {
            "type": "integer",
            "minimum": 0
          }
        }
      },
      "CoverageExtra": {
        "type": "object",
        "required": [
          "answer",
          "hits"
        ],
        "properties": {
          "answer": {
            "type": "string"
          },
          "hits": {
            "type": "integer",
            "minimum": 0
          }
        }
      },
      "Health": {
        "type": "object",
        "required": [
          "status"
        ],
        "properties": {
          "status": {
            "const": "ok"
          }
        }
      },
      "Storage": {
        "type": "object",
        "required": [
          "storage"
        ],
        "properties": {
          "storage": {
            "description": "Where it keeps its state.",
            "enum": [
              "memory",
              "redis"
            ]
          },
          "redis": {
            "description": "A cluster replica's Redis connection.",
            "enum": [
              "up",
              "down"
            ]
          }
        }
      },
      "Readiness": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Storage"
          },
          {
            "type": "object",
            "required": [
              "status"
            ],
            "properties": {
              "status": {
                "const": "ready"
              }
            }
          }
        ]
      },
      "NotReady": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Error"
          },
          {
            "$ref": "#/components/schemas/Storage"
          },
          {
            "type": "object",
            "required": [
              "status"
            ],
            "properties": {
              "status": {
                "const": "not ready"
              }
            }
          }
        ]
      }
    }
  }
}
