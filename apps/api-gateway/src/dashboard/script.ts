import { createHash } from 'node:crypto';

/**
 * The dashboard's only script, progressive enhancement on pages that work without it:
 * - a Copy button beside each `input[data-copy]` (the public link, a signing secret), announcing
 *   "Copied" to screen readers;
 * - a table body with `data-live` fetches its rows again every 5 seconds, conditionally
 *   (If-None-Match: a 304 when nothing changed), so new registrations appear without a reload;
 *   it stops while the tab is hidden and after an error.
 */
const SOURCE = `'use strict';
(function () {
  var announcer = document.createElement('p');
  announcer.className = 'visually-hidden';
  announcer.setAttribute('role', 'status');
  document.body.appendChild(announcer);
  function announce(text) { announcer.textContent = ''; setTimeout(function () { announcer.textContent = text; }, 50); }

  document.querySelectorAll('input[data-copy]').forEach(function (input) {
    if (!navigator.clipboard) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'button secondary';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy ' + (input.labels && input.labels[0] ? input.labels[0].textContent : 'value'));
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(input.value).then(function () { announce('Copied'); }, function () { input.select(); });
    });
    input.insertAdjacentElement('afterend', button);
  });

  document.querySelectorAll('[data-live]').forEach(function (target) {
    var url = target.getAttribute('data-live');
    var etag = null;
    var timer = null;
    function poll() {
      if (document.hidden) return;
      var headers = etag ? { 'If-None-Match': etag } : {};
      fetch(url, { headers: headers, credentials: 'same-origin', redirect: 'error' }).then(function (res) {
        if (res.status === 304) return;
        if (!res.ok) throw new Error('refresh failed');
        var first = etag === null;
        etag = res.headers.get('ETag');
        return res.text().then(function (html) {
          if (html === target.innerHTML) return;
          target.innerHTML = html;
          if (!first) announce('The list was updated.');
        });
      }).catch(function () { clearInterval(timer); });
    }
    poll();
    timer = setInterval(poll, 5000);
  });
})();
`;

const HASH = createHash('sha256').update(SOURCE).digest('hex').slice(0, 16);

/** The script's path: its content's hash names it, so it is cached for good and a new version is a new path. */
export const SCRIPT_PATH = `/app/assets/dashboard-${HASH}.js`;

export const SCRIPT = { name: `dashboard-${HASH}.js`, source: SOURCE };
