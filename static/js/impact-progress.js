// The engine-change page (templates/review/engine_changes.html): while the report workers
// replay a change, follows its progress through the JSON endpoint and, when the measure is
// done (or stopped), shows the page again with what it found. Every text comes from the
// server; without JavaScript the page's link shows the same.
(function () {
  "use strict";

  const root = document.getElementById("impact-progress");
  if (!root) {
    return;
  }
  const bar = document.getElementById("impact-progress-bar");
  const text = document.getElementById("impact-progress-text");
  const DELAY_MS = 1500;
  const RETRY_DELAY_MS = 5000;

  function poll() {
    fetch(root.dataset.progressUrl, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok || response.redirected) {
          throw new Error("status " + response.status);
        }
        return response.json();
      })
      .then(function (progress) {
        if (progress.finished || progress.failed) {
          window.location.reload();
          return;
        }
        bar.value = progress.percent;
        bar.textContent = progress.percent + " %";
        if (text.textContent !== progress.text) {
          text.textContent = progress.text;
        }
        window.setTimeout(poll, DELAY_MS);
      })
      .catch(function () {
        window.setTimeout(poll, RETRY_DELAY_MS);
      });
  }

  window.setTimeout(poll, DELAY_MS);
})();
