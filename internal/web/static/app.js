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
  // A CSV import runs a few rows a request, so that the page can show how far it has come.
  var imp = document.querySelector("form[data-import]"), prog = document.querySelector("[data-import-progress]");
  if (imp && prog && window.fetch && window.URLSearchParams) {
    imp.addEventListener("submit", function (ev) {
      ev.preventDefault();
      imp.hidden = true;
      prog.hidden = false;
      var bar = prog.querySelector("progress"), count = prog.querySelector("[data-import-count]"), body = prog.querySelector("tbody"),
        state = prog.querySelector("[data-import-state]");
      var step = function (offset) {
        var form = new URLSearchParams(new FormData(imp));
        form.set("offset", String(offset));
        fetch(imp.action, { method: "POST", body: form, credentials: "same-origin", headers: { Accept: "application/json" } })
          .then(function (r) {
            if (r.redirected) { throw new Error("you are no longer signed in; sign in and upload the file again"); }
            if (!r.ok) { throw new Error("the server answered " + r.status); }
            return r.json();
          })
          .then(function (res) {
            bar.max = res.total;
            bar.value = res.done;
            count.textContent = String(res.done);
            res.rows.forEach(function (row) {
              var tr = document.createElement("tr"), cells = [String(row.line), row.name,
                row.problem || (row.status === "created" ? "Now tracked" : "Already tracked: updated")];
              cells.forEach(function (c, i) {
                var td = document.createElement("td");
                if (i === 1 && row.entityId) {
                  var a = document.createElement("a");
                  a.href = "/companies/" + row.entityId;
                  a.textContent = c;
                  td.appendChild(a);
                } else { td.textContent = c; }
                if (i === 2 && row.problem) { td.className = "error"; }
                tr.appendChild(td);
              });
              body.appendChild(tr);
            });
            prog.querySelector("table").hidden = !body.firstChild;
            if (res.done < res.total) { step(res.done); } else { state.textContent = ". Finished."; }
          })
          .catch(function (e) { state.className = "stopped"; state.textContent = ". Stopped: " + e.message + "."; });
      };
      step(0);
    });
  }
  document.querySelectorAll("select[data-autosubmit]").forEach(function (s) {
    s.addEventListener("change", function () { if (s.form) { s.form.submit(); } });
  });
})();
