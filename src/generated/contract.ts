// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.
/** The numbers and scopes of the contract, as the core enforces them. */
export const contract = {
  "version": "1.0.0",
  "scopes": [
    "plants:read",
    "plants:write"
  ],
  "operations": {
    "listPlants": {
      "method": "GET",
      "path": "/plants",
      "scopes": [
        "plants:read"
      ]
    },
    "headPlants": {
      "method": "HEAD",
      "path": "/plants",
      "scopes": [
        "plants:read"
      ]
    },
    "addPlant": {
      "method": "POST",
      "path": "/plants",
      "scopes": [
        "plants:write"
      ]
    },
    "deletePlant": {
      "method": "DELETE",
      "path": "/plants/{id}",
      "scopes": [
        "plants:write"
      ]
    }
  },
  "maxBodyBytes": 65536,
  "defaultQuota": 10000,
  "id": {
    "minimum": -9007199254740991,
    "maximum": 9007199254740991
  },
  "name": {
    "minLength": 1,
    "maxLength": 256
  },
  "tag": {
    "maxLength": 256
  }
} as const
