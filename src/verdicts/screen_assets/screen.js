// The report screen's only script: expand/collapse, filter, open a card from the
// diagram or a #card-N link, and check upload sizes before sending.  No network, except
// on a page served by `serve --watch` (body[data-live]): it listens for the server's
// "reload" events and replaces its own content in place, keeping open cards and scroll.
(function () {
  "use strict";
  var cards = function () { return Array.prototype.slice.call(document.querySelectorAll("details.card")); };
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var el = document.getElementById(id);
    if (el && el.tagName === "DETAILS") { openWithParents(el); el.scrollIntoView({ block: "center" }); }
  }
  // a card inside a folded group opens with the fold around it
  function openWithParents(el) {
    for (var d = el; d; d = d.parentElement ? d.parentElement.closest("details") : null) d.open = true;
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("button[data-action]");
    if (!btn) return;
    var action = btn.getAttribute("data-action");
    if (action === "expand" || action === "collapse") {
      cards().forEach(function (d) { d.open = action === "expand"; });
      document.querySelectorAll("details.fold").forEach(function (d) { d.open = action === "expand"; });
    } else if (action === "locate") {
      var el = document.getElementById(btn.getAttribute("data-target"));
      if (!el) return;
      document.querySelectorAll(".flash").forEach(function (f) { f.classList.remove("flash"); });
      el.classList.add("flash");
      el.scrollIntoView({ block: "center", inline: "center" });
    } else if (action === "fit" || action === "actual") {
      var box = document.querySelector(".diagram");
      if (box) box.classList.toggle("fit", action === "fit");
    }
  });
  var filter = document.getElementById("filter");
  if (filter) {
    filter.addEventListener("input", function () {
      var q = filter.value.trim().toLowerCase();
      if (q) document.querySelectorAll("details.fold").forEach(function (d) { d.open = true; });
      cards().forEach(function (d) {
        var hit = !q || d.querySelector("summary").textContent.toLowerCase().indexOf(q) >= 0;
        d.parentElement.classList.toggle("hidden-by-filter", !hit);
      });
    });
  }
  var live = document.body.getAttribute("data-live");
  if (live && window.EventSource) {
    var source = new EventSource(live);
    source.addEventListener("reload", function () {
      var open = {};
      document.querySelectorAll("details[data-key]").forEach(function (d) { if (d.open) open[d.getAttribute("data-key")] = true; });
      var x = window.scrollX, y = window.scrollY;
      var q = filter ? filter.value : "";
      fetch(location.pathname, { cache: "no-store" }).then(function (r) { return r.text(); }).then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        ["header .chips", "#summary-strip", ".layout", "footer"].forEach(function (sel) {
          var now = document.querySelector(sel), next = fresh.querySelector(sel);
          if (now && next) now.replaceWith(document.importNode(next, true));
        });
        document.querySelectorAll("details[data-key]").forEach(function (d) { if (open[d.getAttribute("data-key")]) d.open = true; });
        if (filter && q) { filter.value = q; filter.dispatchEvent(new Event("input")); }
        document.body.setAttribute("data-version", (parseInt(document.body.getAttribute("data-version") || "0", 10) + 1).toString());
        window.scrollTo(x, y);
      });
    });
  }
  // upload: a Korean button for the file picker, and drag and drop onto the box
  var drop = document.getElementById("drop");
  if (drop) {
    var picker = document.getElementById("files"), picked = drop.querySelector(".picked");
    var show = function () {
      var names = [];
      for (var i = 0; i < picker.files.length; i++) names.push(picker.files[i].name);
      picked.textContent = names.length ? names.join(", ") : "고른 파일이 없습니다.";
    };
    picker.addEventListener("change", show);
    ["dragenter", "dragover"].forEach(function (t) {
      drop.addEventListener(t, function (ev) { ev.preventDefault(); drop.classList.add("over"); });
    });
    ["dragleave", "drop"].forEach(function (t) {
      drop.addEventListener(t, function () { drop.classList.remove("over"); });
    });
    drop.addEventListener("drop", function (ev) {
      ev.preventDefault();
      if (ev.dataTransfer && ev.dataTransfer.files.length) { picker.files = ev.dataTransfer.files; show(); }
    });
  }
  var form = document.querySelector("form[data-limit]");
  if (form) {
    form.addEventListener("submit", function (ev) {
      var limit = parseInt(form.getAttribute("data-limit"), 10) || 0;
      var input = form.querySelector("input[type=file]");
      var box = document.querySelector(".upload-error");
      var total = 0;
      for (var i = 0; i < input.files.length; i++) total += input.files[i].size;
      var message = "";
      if (!input.files.length) message = "올릴 파일을 고르세요.";
      else if (limit && total > limit) message = "파일이 너무 큽니다: " + total + "바이트 (한도 " + limit + "바이트).";
      if (message) { ev.preventDefault(); box.textContent = message; box.hidden = false; }
    });
  }
})();
