// Generated from contracts/sandbox.openapi.yaml by contracts/codegen.ts. Do not edit.
/** The sandbox control API's operations: method, path as clients call it, scopes, query parameters, whether it takes a body; and the response headers it declares. */
export const sandboxContract = {
  "operations": {
    "provisionTenant": {
      "method": "POST",
      "path": "/__sandbox/tenants",
      "scopes": [],
      "query": [],
      "body": true
    },
    "deleteTenant": {
      "method": "DELETE",
      "path": "/__sandbox/tenants/{id}",
      "scopes": [
        "plants:write"
      ],
      "query": [],
      "body": false
    },
    "resetTenant": {
      "method": "POST",
      "path": "/__sandbox/reset",
      "scopes": [
        "plants:write"
      ],
      "query": [],
      "body": false
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
      ],
      "body": false
    },
    "clearRequests": {
      "method": "DELETE",
      "path": "/__sandbox/requests",
      "scopes": [
        "plants:write"
      ],
      "query": [],
      "body": false
    },
    "headListRequests": {
      "method": "HEAD",
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
      ],
      "body": false
    },
    "listFaults": {
      "method": "GET",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:read"
      ],
      "query": [],
      "body": false
    },
    "addFault": {
      "method": "POST",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:write"
      ],
      "query": [],
      "body": true
    },
    "clearFaults": {
      "method": "DELETE",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:write"
      ],
      "query": [],
      "body": false
    },
    "headListFaults": {
      "method": "HEAD",
      "path": "/__sandbox/faults",
      "scopes": [
        "plants:read"
      ],
      "query": [],
      "body": false
    },
    "getFault": {
      "method": "GET",
      "path": "/__sandbox/faults/{id}",
      "scopes": [
        "plants:read"
      ],
      "query": [],
      "body": false
    },
    "deleteFault": {
      "method": "DELETE",
      "path": "/__sandbox/faults/{id}",
      "scopes": [
        "plants:write"
      ],
      "query": [],
      "body": false
    },
    "headGetFault": {
      "method": "HEAD",
      "path": "/__sandbox/faults/{id}",
      "scopes": [
        "plants:read"
      ],
      "query": [],
      "body": false
    },
    "listTenantPlants": {
      "method": "GET",
      "path": "/__sandbox/plants",
      "scopes": [
        "plants:read"
      ],
      "query": [
        "limit"
      ],
      "body": false
    },
    "headListTenantPlants": {
      "method": "HEAD",
      "path": "/__sandbox/plants",
      "scopes": [
        "plants:read"
      ],
      "query": [
        "limit"
      ],
      "body": false
    },
    "tenantCoverage": {
      "method": "GET",
      "path": "/__sandbox/coverage",
      "scopes": [
        "plants:read"
      ],
      "query": [],
      "body": false
    },
    "headTenantCoverage": {
      "method": "HEAD",
      "path": "/__sandbox/coverage",
      "scopes": [
        "plants:read"
      ],
      "query": [],
      "body": false
    },
    "health": {
      "method": "GET",
      "path": "/__sandbox/health",
      "scopes": [],
      "query": [],
      "body": false
    },
    "headHealth": {
      "method": "HEAD",
      "path": "/__sandbox/health",
      "scopes": [],
      "query": [],
      "body": false
    },
    "ready": {
      "method": "GET",
      "path": "/__sandbox/ready",
      "scopes": [],
      "query": [],
      "body": false
    },
    "headReady": {
      "method": "HEAD",
      "path": "/__sandbox/ready",
      "scopes": [],
      "query": [],
      "body": false
    },
    "inspectorEvents": {
      "method": "GET",
      "path": "/__sandbox/events",
      "scopes": [
        "plants:read"
      ],
      "query": [],
      "body": false
    },
    "headInspectorEvents": {
      "method": "HEAD",
      "path": "/__sandbox/events",
      "scopes": [
        "plants:read"
      ],
      "query": [],
      "body": false
    },
    "sandboxContract": {
      "method": "GET",
      "path": "/__sandbox/openapi.json",
      "scopes": [],
      "query": [],
      "body": false
    },
    "headSandboxContract": {
      "method": "HEAD",
      "path": "/__sandbox/openapi.json",
      "scopes": [],
      "query": [],
      "body": false
    }
  },
  "responseHeaders": [
    "WWW-Authenticate",
    "Retry-After",
    "Allow"
  ]
} as const

/** What the CORS policy needs of it alone (its methods, each once, and its response headers), so that a page's worker mock loads no more. */
export const sandboxCors = {
  "methods": [
    "POST",
    "DELETE",
    "GET",
    "HEAD"
  ],
  "responseHeaders": [
    "WWW-Authenticate",
    "Retry-After",
    "Allow"
  ]
} as const
