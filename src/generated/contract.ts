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
  "name": {
    "minLength": 1,
    "maxLength": 256
  },
  "tag": {
    "maxLength": 256
  },
  "id": {
    "minimum": -9007199254740991,
    "maximum": 9007199254740991
  },
  "pathId": {
    "minimum": -9007199254740991,
    "maximum": 9007199254740991
  },
  "limit": {
    "minimum": 0,
    "maximum": 2147483647
  },
  "maxBodyBytes": 65536,
  "defaultQuota": 10000
} as const
