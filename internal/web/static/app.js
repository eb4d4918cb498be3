// Radar web UI: keeps a company page up to date while Radar works on it, and applies filters on change.
(function () {
  "use strict";
  var box = document.querySelector("[data-progress]");
  if (box) {
    var url = box.getAttribute("data-progress"), signal = box.getAttribute("data-signal") || "", polls = 0;
    var tick = function () {
      polls++;
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (p) {
          if (!p) { return; }
          ["lastRun", "scrapeHealthReason"].forEach(function (k) {
            var el = box.querySelector('[data-field="' + k + '"]');
            if (el && p[k] !== undefined) { el.textContent = p[k]; }
          });
          var en = box.querySelector('[data-field="enrichment"] .badge');
          if (en && en.className.indexOf("enrich-" + p.enrichmentStatus) < 0) { location.reload(); return; }
          if (!p.inProgress || (p.latestSignalId || "") !== signal) { location.reload(); return; }
          if (polls < 300) { setTimeout(tick, 2000); }
        })
        .catch(function () { if (polls < 300) { setTimeout(tick, 5000); } });
    };
    setTimeout(tick, 2000);
  }
  document.querySelectorAll("select[data-autosubmit]").forEach(function (s) {
    s.addEventListener("change", function () { if (s.form) { s.form.submit(); } });
  });
})();
