// The API page at /docs: Swagger UI on the service's own OpenAPI document.
// A file of its own, not an inline script, so the page's CSP can forbid inline scripts.
window.ui = SwaggerUIBundle({
  url: "/openapi.yaml",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: true,
});
