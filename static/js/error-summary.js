// A form's error summary (templates/assessments/submission_form.html): focused when the
// page loads, so the keyboard and a screen reader start at the list of what to correct;
// each link in it moves the focus to its field and shows the field's label with it.
(function () {
  "use strict";

  const summary = document.querySelector("[data-error-summary]");
  if (!summary) {
    return;
  }
  summary.focus();

  summary.querySelectorAll("a[href^='#']").forEach(function (link) {
    link.addEventListener("click", function (event) {
      const field = document.getElementById(link.getAttribute("href").slice(1));
      if (!field) {
        return;
      }
      event.preventDefault();
      const label = document.querySelector("label[for='" + field.id + "']");
      (label || field).scrollIntoView({ block: "start" });
      field.focus({ preventScroll: true });
    });
  });
})();
