// Generated from contracts/sandbox.openapi.yaml by contracts/codegen.ts. Do not edit.
/** The sandbox control API's operations: method, path as clients call it, scopes. */
export const sandboxContract = {
  "operations": {
    "provisionTenant": {
      "method": "POST",
      "path": "/__sandbox/tenants",
      "scopes": []
    },
    "deleteTenant": {
      "method": "DELETE",
      "path": "/__sandbox/tenants/{id}",
      "scopes": [
        "plants:write"
      ]
    },
    "resetTenant": {
      "method": "POST",
      "path": "/__sandbox/reset",
      "scopes": [
        "plants:write"
      ]
    },
    "listRequests": {
      "method": "GET",
      "path": "/__sandbox/requests",
      "scopes": [
        "plants:read"
      ]
    },
    "clearRequests": {
      "method": "DELETE",
      "path": "/__sandbox/requests",
      "scopes": [
        "plants:write"
      ]
    },
    "listFaults": {
      "method": "GET",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:read"
      ]
    },
    "addFault": {
      "method": "POST",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:write"
      ]
    },
    "clearFaults": {
      "method": "DELETE",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:write"
      ]
    },
    "getFault": {
      "method": "GET",
      "path": "/__sandbox/faults/{id}",
      "scopes": [
        "plants:read"
      ]
    },
    "deleteFault": {
      "method": "DELETE",
      "path": "/__sandbox/faults/{id}",
      "scopes": [
        "plants:write"
      ]
    },
    "listTenantPlants": {
      "method": "GET",
      "path": "/__sandbox/plants",
      "scopes": [
        "plants:read"
      ]
    },
    "tenantCoverage": {
      "method": "GET",
      "path": "/__sandbox/coverage",
      "scopes": [
        "plants:read"
      ]
    },
    "health": {
      "method": "GET",
      "path": "/__sandbox/health",
      "scopes": []
    },
    "headHealth": {
      "method": "HEAD",
      "path": "/__sandbox/health",
      "scopes": []
    },
    "ready": {
      "method": "GET",
      "path": "/__sandbox/ready",
      "scopes": []
    },
    "headReady": {
      "method": "HEAD",
      "path": "/__sandbox/ready",
      "scopes": []
    },
    "inspectorEvents": {
      "method": "GET",
      "path": "/__sandbox/events",
      "scopes": [
        "plants:read"
      ]
    },
    "sandboxContract": {
      "method": "GET",
      "path": "/__sandbox/openapi.json",
      "scopes": []
    }
  }
} as const
