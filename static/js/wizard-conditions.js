// A wizard step's inputs that apply only sometimes (templates/assessments/wizard.html).
//
// Each such row carries its condition, as the engine declares it (Param.applies_when), in
// data-applies-when: a JSON list of alternatives, each {symbol: [allowed values]}; null
// stands for a choice left empty. The row applies when one alternative holds: every
// symbol named has one of its values and applies itself. A symbol on this step is read from
// its field as it is now; one on another step from the saved values the server put in
// data-saved on the list of rows. A row that does not apply gets the hidden attribute, so
// it is neither shown nor reached with the Tab key, and the server ignores what it holds.
// Without JavaScript the server shows the rows that apply as the step was last saved or
// posted.
(function () {
  "use strict";

  document.querySelectorAll("[data-wizard-fields]").forEach(function (list) {
    const saved = JSON.parse(list.dataset.saved || "{}");
    const rows = {};
    list.querySelectorAll("[data-symbol]").forEach(function (row) {
      rows[row.dataset.symbol] = row;
    });

    function valueOf(symbol) {
      const row = rows[symbol];
      if (!row) {
        return Object.prototype.hasOwnProperty.call(saved, symbol) ? saved[symbol] : null;
      }
      const checked = row.querySelector("input[type=radio]:checked");
      if (checked) {
        return checked.value;
      }
      const field = row.querySelector("select, input:not([type=radio])");
      return field && field.value !== "" ? field.value : null;
    }

    function applies(symbol, seen) {
      const row = rows[symbol];
      if (!row || !row.dataset.appliesWhen) {
        return row ? true : Object.prototype.hasOwnProperty.call(saved, symbol);
      }
      if (seen.indexOf(symbol) !== -1) {
        return false;
      }
      const alternatives = JSON.parse(row.dataset.appliesWhen);
      return alternatives.some(function (alternative) {
        return Object.keys(alternative).every(function (control) {
          return applies(control, seen.concat([symbol])) && alternative[control].indexOf(valueOf(control)) !== -1;
        });
      });
    }

    function update() {
      Object.keys(rows).forEach(function (symbol) {
        const row = rows[symbol];
        if (row.dataset.appliesWhen) {
          row.hidden = !applies(symbol, []);
        }
      });
    }

    list.addEventListener("change", update);
    update();
  });
})();
