// Generated from contracts/openapi.yaml by contracts/codegen.ts. Do not edit.
/**
 * Every operation's inputs as the contract declares them (parameters with
 * their place and schema, the body's schema by name) and the schemas of the
 * bodies, reduced to what the core enforces: what src/core/inputs.ts checks
 * every request against.
 */
export const contractInputs = {
  "operations": {
    "listPlants": {
      "parameters": [
        {
          "name": "limit",
          "in": "query",
          "required": false,
          "schema": {
            "type": "integer",
            "format": "int32",
            "minimum": 0,
            "maximum": 2147483647
          }
        },
        {
          "name": "Prefer",
          "in": "header",
          "required": false,
          "schema": {
            "type": "string"
          }
        }
      ],
      "body": null
    },
    "headPlants": {
      "parameters": [
        {
          "name": "limit",
          "in": "query",
          "required": false,
          "schema": {
            "type": "integer",
            "format": "int32",
            "minimum": 0,
            "maximum": 2147483647
          }
        },
        {
          "name": "Prefer",
          "in": "header",
          "required": false,
          "schema": {
            "type": "string"
          }
        }
      ],
      "body": null
    },
    "addPlant": {
      "parameters": [
        {
          "name": "Prefer",
          "in": "header",
          "required": false,
          "schema": {
            "type": "string"
          }
        }
      ],
      "body": {
        "schema": "NewPlant",
        "required": true
      }
    },
    "deletePlant": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "integer",
            "format": "int64",
            "minimum": -9007199254740991,
            "maximum": 9007199254740991
          }
        },
        {
          "name": "Prefer",
          "in": "header",
          "required": false,
          "schema": {
            "type": "string"
          }
        }
      ],
      "body": null
    }
  },
  "schemas": {
    "NewPlant": {
      "type": "object",
      "required": [
        "name",
        "id"
      ],
      "properties": {
        "id": {
          "type": "integer",
          "format": "int64",
          "minimum": -9007199254740991,
          "maximum": 9007199254740991
        },
        "name": {
          "type": "string",
          "minLength": 1,
          "maxLength": 256
        },
        "tag": {
          "type": "string",
          "maxLength": 256,
          "nullable": true
        }
      }
    }
  }
} as const
