// The wizard's "Submitter's site data" step (templates/assessments/_site_data_step.html):
// shows only the chosen EIIP method's inputs as soon as a method is picked, and the
// release, source and activity fields once there is a method. Without JavaScript the
// "Show this method's inputs" button asks the server for the same page; with it, that
// button is not needed and is hidden. Nothing is hidden that the server would read: the
// server reads only the chosen method's inputs.
(function () {
  "use strict";

  document.querySelectorAll("[data-site-entry]").forEach(function (entry) {
    const choices = entry.querySelectorAll("[data-site-method-choice]");

    function update() {
      const checked = entry.querySelector("[data-site-method-choice]:checked");
      const chosen = checked ? checked.value : "";
      entry.querySelectorAll("[data-site-method]").forEach(function (fieldset) {
        fieldset.hidden = fieldset.dataset.siteMethod !== chosen;
      });
      entry.querySelectorAll("[data-site-entry-details]").forEach(function (details) {
        details.hidden = chosen === "";
      });
    }

    choices.forEach(function (choice) {
      choice.addEventListener("change", update);
    });
    entry.querySelectorAll("[data-site-show]").forEach(function (button) {
      button.hidden = true;
    });
    update();
  });
})();
