// The operator's preview page (GET /v1/releases/preview) and its script. Every URL in them is
// relative, so the page works at /v1/releases/preview on the API and at /api/v1/releases/preview
// behind the host's proxy alike. No inline script or style: the page's CSP allows only 'self'.
import { BUILD_ID_SOURCE, REMOTE_NAME_SOURCE } from '@special-gift/shared/builds';

export const PREVIEW_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Preview a build · Special Gift</title>
<script src="preview.js" defer></script>
</head>
<body>
<h1>Preview a build in this browser</h1>
<p>This browser alone gets the build below for its remote, for 8 hours or until you stop the preview.
Everyone else keeps the live build.</p>
<form id="preview-form">
<p><label>Remote <input name="remote" required pattern="${REMOTE_NAME_SOURCE}" autocomplete="off"></label></p>
<p><label>Build id <input name="buildId" required pattern="${BUILD_ID_SOURCE}" autocomplete="off"></label></p>
<p><label>Token (a deployer's, or the operator's) <input name="token" type="password" required autocomplete="off"></label></p>
<p><button type="submit">Start preview</button> <button type="button" id="stop-preview">Stop preview</button></p>
</form>
<p id="preview-result" role="status"></p>
</body>
</html>
`;

export const PREVIEW_PAGE_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('preview-form');
  var result = document.getElementById('preview-result');
  function say(text) { result.textContent = text; }
  function explain(response) {
    return response.json().then(
      function (body) { return body && body.error ? body.error.message : 'HTTP ' + response.status; },
      function () { return 'HTTP ' + response.status; }
    );
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var data = new FormData(form);
    say('Starting...');
    fetch('preview', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + String(data.get('token')) },
      body: JSON.stringify({ remote: String(data.get('remote')), buildId: String(data.get('buildId')) })
    }).then(function (response) {
      if (response.ok) {
        return response.json().then(function (body) {
          say('Previewing ' + body.remote + ' build ' + body.buildId + ' until ' + body.expiresAt + '. Open the site in this browser.');
        });
      }
      return explain(response).then(function (message) { say('Not started: ' + message); });
    }, function () { say('Not started: the API cannot be reached.'); });
  });
  document.getElementById('stop-preview').addEventListener('click', function () {
    fetch('preview', { method: 'DELETE', credentials: 'same-origin' }).then(function (response) {
      say(response.ok ? 'Preview stopped: this browser gets the live builds again.' : 'HTTP ' + response.status);
    }, function () { say('The API cannot be reached.'); });
  });
})();
`;
