// The run index's filters: failed only, violations only, pending operations only (offered when a
// scenario left a call waiting), one lock type. They live in the URL's hash
// (#failed&violated&pending&lock=rlock), so a filtered view can be linked to and reloaded.
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('table.runs tr.row'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('table.runs tbody.scenario'));
  var failed = document.getElementById('f-failed');
  var violated = document.getElementById('f-violated');
  var pending = document.getElementById('f-pending');  // null where no scenario left a call waiting
  var lock = document.getElementById('f-lock');
  var shown = document.getElementById('shown');
  var empty = document.getElementById('empty');
  if (!failed || !violated || !lock) return;

  function apply() {
    var count = 0;
    rows.forEach(function (row) {
      var hide = (failed.checked && row.dataset.failed !== '1') ||
        (violated.checked && row.dataset.violated !== '1') ||
        (pending && pending.checked && row.dataset.pending !== '1') ||
        (lock.value !== '' && row.dataset.lock !== lock.value);
      row.hidden = hide;
      if (!hide) count++;
    });
    // A scenario's heading is hidden when all its rows are.
    groups.forEach(function (group) {
      group.hidden = group.querySelector('tr.row:not([hidden])') === null;
    });
    shown.textContent = count + ' of ' + rows.length + ' rows shown';
    empty.hidden = count > 0 || rows.length === 0;
  }

  function fromHash() {
    var parts = decodeURIComponent(location.hash.replace(/^#/, '')).split('&');
    failed.checked = parts.indexOf('failed') >= 0;
    violated.checked = parts.indexOf('violated') >= 0;
    if (pending) pending.checked = parts.indexOf('pending') >= 0;
    var wanted = '';
    parts.forEach(function (p) { if (p.indexOf('lock=') === 0) wanted = p.slice(5); });
    lock.value = wanted;
    if (lock.value !== wanted) lock.value = '';  // a lock type this run does not have
    apply();
  }

  function toHash() {
    var parts = [];
    if (failed.checked) parts.push('failed');
    if (violated.checked) parts.push('violated');
    if (pending && pending.checked) parts.push('pending');
    if (lock.value) parts.push('lock=' + encodeURIComponent(lock.value));
    var hash = parts.length ? '#' + parts.join('&') : '';
    history.replaceState(null, '', location.pathname + location.search + hash);
    apply();
  }

  [failed, violated, pending, lock].forEach(function (control) {
    if (control) control.addEventListener('change', toHash);
  });
  window.addEventListener('hashchange', fromHash);
  fromHash();
})();
