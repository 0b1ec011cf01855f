// The API page at /docs: Swagger UI on the service's own OpenAPI document.
// A file of its own, not an inline script, so the page's CSP can forbid inline scripts.

// Swagger UI's request-body textarea has no label: name it (its other text areas are left as they are).
const LabelledBody = () => ({
  wrapComponents: {
    TextArea: (Original, system) => (props) =>
      system.React.createElement(Original, (props.className || "").includes("body-param__text")
        ? Object.assign({ "aria-label": "Request body (JSON)" }, props) : props),
  },
});

window.ui = SwaggerUIBundle({
  url: "/openapi.yaml",
  dom_id: "#swagger-ui",
  // Off: with deep links each operation's summary button holds a link (a focusable element inside a button).
  deepLinking: false,
  validatorUrl: null,
  tryItOutEnabled: true,
  plugins: [LabelledBody],
});
