// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.
/** contracts/openapi.yaml as data: what the conformance rules validate answers against. */
export const contractDocument = {
  "openapi": "3.0.3",
  "info": {
    "title": "OpenAPI Plant Store",
    "version": "1.0.0",
    "description": "A sample API that uses a plant store as an example to demonstrate features\nin the OpenAPI specification. This is the contract of plant-store-mock: the\npublished Plant Store description (list, create and delete plants) plus the\nproject's decisions for everything the published text leaves open (auth\nfailures, tenancy, limits, quota). Responses that the published description\ndoes not declare (401, 403, 404, 409, 413, 415, 503, 507) are marked with\n`x-plant-store-decision: true`. The sandbox's `Prefer` header makes an\noperation answer one of its declared statuses, never another.\n\nEvery non-2xx answer carries an `Error` body whose `error` field is the HTTP\nstatus. Tokens belong to a user, a user to one tenant; every operation only\never sees the caller's tenant. A path without parameters answers the same\nwith one trailing slash (`/plants/`).\n",
    "license": {
      "name": "MIT",
      "url": "https://opensource.org/licenses/MIT"
    }
  },
  "servers": [
    {
      "url": "http://127.0.0.1:4010",
      "description": "The standalone sandbox (`npm start`); MSW handlers match any origin."
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "paths": {
    "/plants": {
      "get": {
        "operationId": "listPlants",
        "summary": "Returns all plants of the caller's tenant, oldest first.",
        "description": "Returns the plants the authenticated user has access to: those of the\nuser's tenant, in creation order (oldest first), cut to the first\n`limit` plants when `limit` is given.\n",
        "x-required-scopes": [
          "plants:read"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/limit"
          },
          {
            "$ref": "#/components/parameters/Prefer"
          }
        ],
        "responses": {
          "200": {
            "description": "plant response",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/Plant"
                  }
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
          "503": {
            "$ref": "#/components/responses/StorageUnavailable"
          }
        }
      },
      "head": {
        "operationId": "headPlants",
        "summary": "Answers the headers of the plant list, without its body.",
        "description": "HTTP's HEAD for `GET /plants`: the same rules, status and headers as the\nlist (including `Content-Length` and `WWW-Authenticate`), and no body.\n",
        "x-required-scopes": [
          "plants:read"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/limit"
          },
          {
            "$ref": "#/components/parameters/Prefer"
          }
        ],
        "responses": {
          "200": {
            "description": "the headers of the plant list, no body"
          },
          "400": {
            "description": "as for GET, without the Error body"
          },
          "401": {
            "description": "as for GET, without the Error body",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/WWW-Authenticate"
              }
            }
          },
          "403": {
            "description": "as for GET, without the Error body",
            "headers": {
              "WWW-Authenticate": {
                "$ref": "#/components/headers/WWW-Authenticate"
              }
            }
          },
          "503": {
            "description": "as for GET, without the Error body",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/Retry-After"
              }
            }
          }
        }
      },
      "post": {
        "operationId": "addPlant",
        "summary": "Creates a new plant in the store.",
        "description": "Creates a plant in the caller's tenant. The body must be\n`application/json` (only a UTF-8 charset parameter is allowed) and at most 64 KiB.\nUnknown fields are ignored; a `null` tag is treated as absent.\n",
        "x-required-scopes": [
          "plants:write"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/Prefer"
          }
        ],
        "requestBody": {
          "description": "Plant to add to the store",
          "required": true,
          "x-max-body-bytes": 65536,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewPlant"
              },
              "example": {
                "id": 100,
                "name": "Fern",
                "tag": "fern"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "plant response",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Plant"
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
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "503": {
            "$ref": "#/components/responses/StorageUnavailable"
          },
          "507": {
            "$ref": "#/components/responses/QuotaExceeded"
          }
        }
      }
    },
    "/plants/{id}": {
      "delete": {
        "operationId": "deletePlant",
        "summary": "Deletes a single plant based on the ID supplied.",
        "description": "Deletes the plant with this id from the caller's tenant. An id that\ndoes not exist in the caller's tenant is a 404, whether or not it\nexists in another tenant.\n",
        "x-required-scopes": [
          "plants:write"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/id"
          },
          {
            "$ref": "#/components/parameters/Prefer"
          }
        ],
        "responses": {
          "204": {
            "description": "plant deleted"
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
            "$ref": "#/components/responses/NotFound"
          },
          "503": {
            "$ref": "#/components/responses/StorageUnavailable"
          }
        }
      }
    }
  },
  "components": {
    "parameters": {
      "id": {
        "name": "id",
        "in": "path",
        "description": "ID of the plant in the caller's tenant: an optional `-` followed by\ndecimal digits, within the range JavaScript represents exactly.\n",
        "required": true,
        "schema": {
          "type": "integer",
          "format": "int64",
          "minimum": -9007199254740991,
          "maximum": 9007199254740991
        }
      },
      "Prefer": {
        "name": "Prefer",
        "in": "header",
        "description": "The standalone sandbox only (the msw handlers ignore it), with a\nvalid token; Prism's convention (RFC 7240). `delay=<ms>` holds the\nanswer that long (at most 30,000 ms). `code=<status>` answers that\nstatus with the Error body (and the headers the contract requires for\nit) instead of running the operation; it must be a status from 400 to\n599 that this operation declares: any other `code` is a 400 naming\nthe ones it declares, and the operation does not run. A fault rule\n(the sandbox-control API) answers any status. Applied preferences\ncome back in `Preference-Applied`; others are ignored.\n",
        "required": false,
        "schema": {
          "type": "string"
        }
      },
      "limit": {
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
    },
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer <token>`. A token grants scopes: `plants:read`\n(the operations that read plants) and `plants:write` (those that\nchange them). OpenAPI 3.0 cannot attach scopes to an http scheme, so\neach operation names its scopes in `x-required-scopes`.\n",
        "x-scopes": {
          "plants:read": "Read the plants of the caller's tenant.",
          "plants:write": "Change the plants of the caller's tenant."
        }
      }
    },
    "headers": {
      "WWW-Authenticate": {
        "description": "RFC 6750 challenge, e.g. `Bearer realm=\"plant-store\", error=\"invalid_token\"`.",
        "required": true,
        "schema": {
          "type": "string",
          "pattern": "^Bearer realm=\"plant-store\"(, error=\"(invalid_token|insufficient_scope)\")?$"
        }
      },
      "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "required": true,
        "schema": {
          "type": "integer",
          "minimum": 0
        }
      }
    },
    "responses": {
      "BadRequest": {
        "description": "The request is invalid (a parameter or the body); the message names the field.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Unauthorized": {
        "description": "The `Authorization` header is missing or not Bearer (challenge without\nan error), or the token is unknown, expired or malformed\n(`error=\"invalid_token\"`).\n",
        "x-plant-store-decision": true,
        "headers": {
          "WWW-Authenticate": {
            "$ref": "#/components/headers/WWW-Authenticate"
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
        "description": "The token lacks the scope the operation needs (`error=\"insufficient_scope\"`).",
        "x-plant-store-decision": true,
        "headers": {
          "WWW-Authenticate": {
            "$ref": "#/components/headers/WWW-Authenticate"
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
        "description": "No plant with this id in the caller's tenant.",
        "x-plant-store-decision": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Conflict": {
        "description": "A plant with this id already exists in the caller's tenant.",
        "x-plant-store-decision": true,
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
        "x-plant-store-decision": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "The request body is not `application/json`.",
        "x-plant-store-decision": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "QuotaExceeded": {
        "description": "The caller's tenant already holds its quota of plants (10,000 by\ndefault), or the sandbox's plants, all tenants together, are at the\nmemory they may take (`--plant-bytes-total`) with no idle tenant to\nevict, or the plants of the tenants of the caller's client are at its\nshare of it (`--client-share`); nothing stored is lost.\n",
        "x-plant-store-decision": true,
        "x-default-quota": 10000,
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
            "$ref": "#/components/headers/Retry-After"
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
    },
    "schemas": {
      "Plant": {
        "type": "object",
        "required": [
          "name"
        ],
        "properties": {
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
      "NewPlant": {
        "type": "object",
        "required": [
          "name",
          "id"
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
            "description": "Name of the plant, 1 to 256 characters (not trimmed).",
            "type": "string",
            "minLength": 1,
            "maxLength": 256
          },
          "tag": {
            "description": "Tag to specify the type, at most 256 characters; `null` is treated as absent.",
            "type": "string",
            "maxLength": 256,
            "nullable": true
          }
        }
      },
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
      }
    }
  }
}
