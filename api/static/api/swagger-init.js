// The API reference page (templates/api/docs.html): Swagger UI from django-ninja's own files,
// its settings read from the page's data attributes (no inline script: the CSP forbids it).
(function () {
  "use strict";
  var element = document.getElementById("swagger-ui");
  if (!element || typeof SwaggerUIBundle === "undefined") {
    return;
  }
  SwaggerUIBundle({
    url: element.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
  });
})();
