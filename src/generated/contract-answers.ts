// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.
/**
 * What each operation of the contract may answer: its statuses, ascending, and the fields a 400 of it can be
 * about (its parameters, then its body and the body's properties); and the headers the contract requires of an
 * answer with each status, on any operation (lower-case names); and every response header it declares, as written
 * (what a web page may read: the CORS policy). What coverage, made-up answers and the CORS policy read.
 */
export const contractAnswers = {
  "operations": {
    "listPlants": {
      "statuses": [
        200,
        400,
        401,
        403,
        503
      ],
      "fields": [
        "limit",
        "Prefer"
      ]
    },
    "headPlants": {
      "statuses": [
        200,
        400,
        401,
        403,
        503
      ],
      "fields": [
        "limit",
        "Prefer"
      ]
    },
    "addPlant": {
      "statuses": [
        200,
        400,
        401,
        403,
        409,
        413,
        415,
        503,
        507
      ],
      "fields": [
        "Prefer",
        "body",
        "id",
        "name",
        "tag"
      ]
    },
    "deletePlant": {
      "statuses": [
        204,
        400,
        401,
        403,
        404,
        503
      ],
      "fields": [
        "id",
        "Prefer"
      ]
    }
  },
  "requiredHeaders": [
    [
      401,
      [
        "www-authenticate"
      ]
    ],
    [
      403,
      [
        "www-authenticate"
      ]
    ],
    [
      503,
      [
        "retry-after"
      ]
    ]
  ],
  "responseHeaders": [
    "WWW-Authenticate",
    "Retry-After"
  ]
} as const
