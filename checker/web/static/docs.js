// The API page at /docs: the page lists the operations itself; this script loads
// Swagger UI on the service's own OpenAPI document below that list, by itself on a
// wide screen and on a phone when asked (its bundle is the page's heaviest part).
// A file of its own, not an inline script, so the page's CSP can forbid inline scripts.
"use strict";

(function () {
  const me = document.currentScript;
  const button = document.getElementById("open-swagger");
  let started = false;

  // Swagger UI's request-body textarea has no label: name it (its other text areas are left as they are).
  const LabelledBody = () => ({
    wrapComponents: {
      TextArea: (Original, system) => (props) =>
        system.React.createElement(Original, (props.className || "").includes("body-param__text")
          ? Object.assign({ "aria-label": "Request body (JSON)" }, props) : props),
    },
  });

  function mount() {
    window.ui = window.SwaggerUIBundle({
      url: "/openapi.yaml",
      dom_id: "#swagger-ui",
      // Off: with deep links each operation's summary button holds a link (a focusable element inside a button).
      deepLinking: false,
      validatorUrl: null,
      tryItOutEnabled: true,
      plugins: [LabelledBody],
    });
    button.textContent = "Swagger UI is open below";
  }

  function open() {
    if (started) return;
    started = true;
    button.disabled = true;
    button.textContent = "Loading Swagger UI…";
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = me.dataset.swaggerCss;
    // before the page's own docs.css, which overrides some of Swagger UI's colours
    document.head.insertBefore(css, document.querySelector('link[rel="stylesheet"]'));
    const js = document.createElement("script");
    js.src = me.dataset.swaggerJs;
    js.addEventListener("load", mount);
    document.head.append(js);
  }

  button.addEventListener("click", () => {
    open();
    document.getElementById("swagger-ui").scrollIntoView({ block: "start" });
  });
  if (window.matchMedia("(min-width: 881px)").matches) open();
})();
