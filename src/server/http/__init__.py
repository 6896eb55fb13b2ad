"""HTTP transport: Starlette routes, SSE, auth middleware."""
