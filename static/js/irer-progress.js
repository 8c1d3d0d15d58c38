// The "Preparing the report" page (templates/reports/irer_preparing.html): follows the
// report's task through its JSON status endpoint and, when the PDF is stored, fetches it
// from the download URL (an attachment: the browser saves it and stays on this page).
// Every text comes from the server; without JavaScript the page's button does the same.
(function () {
  "use strict";

  const root = document.getElementById("irer-progress");
  if (!root) {
    return;
  }
  const statusUrl = root.dataset.statusUrl;
  const downloadUrl = root.dataset.downloadUrl;
  const message = document.getElementById("irer-progress-message");
  const action = document.getElementById("irer-progress-action");
  const workers = document.getElementById("irer-progress-workers");
  const WAITING = ["queued", "rendering", "no-worker"];
  const LOST_CONTACT = "Lost contact with the server; trying again. The button fetches the report when it is ready.";
  const FIRST_DELAY_MS = 700;
  const LATER_DELAY_MS = 2000; // after a minute of waiting, ask less often
  const RETRY_DELAY_MS = 5000;
  const started = Date.now();

  function show(status) {
    // Only what changed, so assistive technology announces each change once.
    if (message.textContent !== status.message) {
      message.textContent = status.message;
    }
    message.className = "alert alert-" + status.tone;
    if (workers && workers.textContent !== status.workers_text) {
      // Not a live region: the count is there to read, not announced at each change.
      workers.textContent = status.workers_text;
      workers.hidden = !status.workers_text;
    }
    action.textContent = status.action;
    root.dataset.state = status.state;
    for (const item of root.querySelectorAll("[data-step]")) {
      const current = item.dataset.step === status.step;
      item.classList.toggle("active", current);
      if (current) {
        item.setAttribute("aria-current", "step");
      } else {
        item.removeAttribute("aria-current");
      }
    }
  }

  function next() {
    return Date.now() - started < 60000 ? FIRST_DELAY_MS : LATER_DELAY_MS;
  }

  function poll() {
    fetch(statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.redirected || response.status === 404) {
          // Logged out (the login page), or the task is gone: the download URL decides.
          window.location.assign(downloadUrl);
          return null;
        }
        if (!response.ok) {
          throw new Error("HTTP " + response.status);
        }
        return response.json();
      })
      .then(function (status) {
        if (status === null) {
          return;
        }
        show(status);
        if (status.state === "ready") {
          window.location.assign(downloadUrl);
        } else if (status.state === "failed") {
          action.focus(); // the next thing to do: try again
        } else {
          window.setTimeout(poll, next());
        }
      })
      .catch(function () {
        if (message.textContent !== LOST_CONTACT) {
          message.textContent = LOST_CONTACT;
        }
        window.setTimeout(poll, RETRY_DELAY_MS);
      });
  }

  if (WAITING.includes(root.dataset.state)) {
    window.setTimeout(poll, FIRST_DELAY_MS);
  }
})();
