// Passkeys: adding one on a person's page, and signing in with one. The
// forms marked data-passkey are hidden until this script finds that the
// browser can use passkeys (window.PublicKeyCredential). A form asks the
// server for the ceremony's options (its data-options address), hands
// them to the browser's passkey dialog, and posts the answer to its own
// address as JSON; the server replies with where to go, or why not in
// words, which the form's data-passkey-status region reads out.
// No inline script: the Content-Security-Policy allows scripts from
// /static only.
(function () {
  "use strict";

  if (!window.PublicKeyCredential || !navigator.credentials) return;

  // The words the script says, in the page's language: the page renders
  // them from the catalogs into a JSON script element (passkeyWords in
  // views/passkeys.templ); {status} stands for an HTTP status.
  var words = {};
  try {
    words = JSON.parse(document.getElementById("passkey-words").textContent) || {};
  } catch (e) {
    words = {};
  }
  function say(key, status) {
    return String(words[key] || "").replace("{status}", status);
  }

  // base64url <-> ArrayBuffer, as the server's options and answers carry
  // binary values.
  function fromB64url(s) {
    var b64 = s.replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) b64 += "=";
    var bin = atob(b64);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out.buffer;
  }

  function toB64url(buf) {
    if (!buf) return undefined;
    var bytes = new Uint8Array(buf);
    var bin = "";
    for (var i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (d) {
      return Object.assign({}, d, { id: fromB64url(d.id) });
    });
  }

  // The options of navigator.credentials.create or .get, from the
  // server's JSON.
  function creationOptions(json) {
    var o = Object.assign({}, json.publicKey);
    o.challenge = fromB64url(o.challenge);
    o.user = Object.assign({}, o.user, { id: fromB64url(o.user.id) });
    o.excludeCredentials = descriptors(o.excludeCredentials);
    return { publicKey: o };
  }

  function requestOptions(json) {
    var o = Object.assign({}, json.publicKey);
    o.challenge = fromB64url(o.challenge);
    if (o.allowCredentials) o.allowCredentials = descriptors(o.allowCredentials);
    return { publicKey: o, mediation: json.mediation || undefined };
  }

  // The browser's answer, as JSON the server reads.
  function answer(cred) {
    var r = cred.response;
    var out = { id: cred.id, rawId: toB64url(cred.rawId), type: cred.type, response: { clientDataJSON: toB64url(r.clientDataJSON) } };
    if (r.attestationObject) {
      out.response.attestationObject = toB64url(r.attestationObject);
      if (r.getTransports) out.response.transports = r.getTransports();
    } else {
      out.response.authenticatorData = toB64url(r.authenticatorData);
      out.response.signature = toB64url(r.signature);
      out.response.userHandle = toB64url(r.userHandle);
    }
    if (cred.authenticatorAttachment) out.authenticatorAttachment = cred.authenticatorAttachment;
    out.clientExtensionResults = cred.getClientExtensionResults ? cred.getClientExtensionResults() : {};
    return out;
  }

  // post sends JSON with the form's token and reads the JSON reply; a
  // reply that is not JSON becomes an error in words.
  function post(url, token, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": token },
      body: JSON.stringify(body || {}),
    }).then(function (res) {
      return res.json().then(
        function (data) {
          if (!res.ok) throw new Error(data.error || say("refused", res.status));
          return data;
        },
        function () {
          throw new Error(say("unreadable", res.status));
        }
      );
    });
  }

  // What the browser's refusal means, in words.
  function browserWords(err) {
    switch (err && err.name) {
      case "NotAllowedError":
        return say("notAllowed");
      case "InvalidStateError":
        return say("invalidState");
      case "SecurityError":
        return say("security");
      case "AbortError":
        return say("abort");
      case "NotSupportedError":
        return say("notSupported");
    }
    return (err && err.message) || say("other");
  }

  // go loads the page at url, even when it is this page with another
  // fragment (which the browser would only scroll to).
  function go(url) {
    var next = new URL(url, window.location.href);
    var here = window.location;
    if (next.pathname === here.pathname && next.search === here.search) {
      here.hash = next.hash;
      here.reload();
      return;
    }
    here.assign(next.href);
  }

  function run(form) {
    var status = form.parentNode.querySelector("[data-passkey-status]");
    var button = form.querySelector("button[type=submit]");
    var token = form.querySelector("input[name=csrf_token]").value;
    var registering = form.getAttribute("data-passkey") === "register";
    function tell(text, failed) {
      if (!status) return;
      status.textContent = text;
      status.classList.toggle("field-error", !!failed);
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      button.disabled = true;
      tell(say(registering ? "creating" : "signingIn"), false);
      post(form.getAttribute("data-options"), token)
        .then(function (options) {
          var asked = registering
            ? navigator.credentials.create(creationOptions(options))
            : navigator.credentials.get(requestOptions(options));
          return asked.then(answer, function (err) {
            throw new Error(browserWords(err));
          });
        })
        .then(function (cred) {
          var body = { credential: cred };
          var name = form.querySelector("input[name=name]");
          var next = form.querySelector("input[name=next]");
          if (name) body.name = name.value;
          if (next) body.next = next.value;
          return post(form.getAttribute("action"), token, body);
        })
        .then(function (reply) {
          tell(say(registering ? "added" : "signedIn"), false);
          go(reply.location);
        })
        .catch(function (err) {
          tell(err.message, true);
          button.disabled = false;
        });
    });
  }

  function start() {
    document.querySelectorAll("[data-passkey-offer]").forEach(function (el) {
      el.hidden = false;
    });
    document.querySelectorAll("[data-passkey-unsupported]").forEach(function (el) {
      el.hidden = true;
    });
    document.querySelectorAll("form[data-passkey]").forEach(run);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
