// Generated from contracts/sandbox.openapi.yaml by contracts/codegen.ts. Do not edit.
/** The sandbox control API's operations: method, path as clients call it, scopes, query parameters. */
export const sandboxContract = {
  "operations": {
    "provisionTenant": {
      "method": "POST",
      "path": "/__sandbox/tenants",
      "scopes": [],
      "query": []
    },
    "deleteTenant": {
      "method": "DELETE",
      "path": "/__sandbox/tenants/{id}",
      "scopes": [
        "plants:write"
      ],
      "query": []
    },
    "resetTenant": {
      "method": "POST",
      "path": "/__sandbox/reset",
      "scopes": [
        "plants:write"
      ],
      "query": []
    },
    "listRequests": {
      "method": "GET",
      "path": "/__sandbox/requests",
      "scopes": [
        "plants:read"
      ],
      "query": [
        "method",
        "path",
        "status",
        "since",
        "until",
        "limit"
      ]
    },
    "clearRequests": {
      "method": "DELETE",
      "path": "/__sandbox/requests",
      "scopes": [
        "plants:write"
      ],
      "query": []
    },
    "listFaults": {
      "method": "GET",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:read"
      ],
      "query": []
    },
    "addFault": {
      "method": "POST",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:write"
      ],
      "query": []
    },
    "clearFaults": {
      "method": "DELETE",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:write"
      ],
      "query": []
    },
    "getFault": {
      "method": "GET",
      "path": "/__sandbox/faults/{id}",
      "scopes": [
        "plants:read"
      ],
      "query": []
    },
    "deleteFault": {
      "method": "DELETE",
      "path": "/__sandbox/faults/{id}",
      "scopes": [
        "plants:write"
      ],
      "query": []
    },
    "listTenantPlants": {
      "method": "GET",
      "path": "/__sandbox/plants",
      "scopes": [
        "plants:read"
      ],
      "query": [
        "limit"
      ]
    },
    "tenantCoverage": {
      "method": "GET",
      "path": "/__sandbox/coverage",
      "scopes": [
        "plants:read"
      ],
      "query": []
    },
    "health": {
      "method": "GET",
      "path": "/__sandbox/health",
      "scopes": [],
      "query": []
    },
    "headHealth": {
      "method": "HEAD",
      "path": "/__sandbox/health",
      "scopes": [],
      "query": []
    },
    "ready": {
      "method": "GET",
      "path": "/__sandbox/ready",
      "scopes": [],
      "query": []
    },
    "headReady": {
      "method": "HEAD",
      "path": "/__sandbox/ready",
      "scopes": [],
      "query": []
    },
    "inspectorEvents": {
      "method": "GET",
      "path": "/__sandbox/events",
      "scopes": [
        "plants:read"
      ],
      "query": []
    },
    "sandboxContract": {
      "method": "GET",
      "path": "/__sandbox/openapi.json",
      "scopes": [],
      "query": []
    }
  }
} as const
