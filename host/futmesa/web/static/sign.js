// The súmula's signing page: the result and summary, then the referee and each captain sign
// with a finger; a signature is sent with the chain hash shown (POST /api/assinar, console
// token as in the console). "Reabrir" sends the reason (POST /api/reabrir).
(() => {
  const $ = (id) => document.getElementById(id);
  const q = new URLSearchParams(location.search);
  const LANG = document.documentElement.lang === "en" ? "en" : "pt";
  const _ = FM.tr(LANG); // the page's language, as the host rendered it
  const pageLang = LANG === "en" ? "en" : "pt-BR"; // the host answers in it, never the phone's
  const table = q.get("table") || "";
  const KEY = table ? `futmesa.token.${table}` : "futmesa.token"; // the console's own key
  if (q.get("token")) {
    localStorage.setItem(KEY, q.get("token"));
    q.delete("token");
    history.replaceState(null, "", `${location.pathname}${q.toString() ? `?${q}` : ""}`);
  }
  const token = () => localStorage.getItem(KEY) || "";
  const forTable = table ? `table=${encodeURIComponent(table)}` : "";
  let view = null;
  let drawn = false;

  function say(text, ok) {
    const el = $("msg");
    el.textContent = text;
    el.className = `msg ${ok ? "ok" : "bad"}`;
  }

  function item(text, cls) {
    const li = document.createElement("li");
    li.textContent = text;
    if (cls) li.className = cls;
    return li;
  }

  async function load() {
    const match = q.get("match");
    const url = `/api/assinaturas?${match ? `match=${encodeURIComponent(match)}` : forTable}`;
    const r = await fetch(url, { cache: "no-store", headers: { "Accept-Language": pageLang } });
    const body = await r.json();
    if (!r.ok) { say(body.error || _("could not read the match"), false); return; }
    view = body;
    $("title").textContent = _("Report of match no. {id}", { id: body.match_id });
    $("result").textContent = body.result;
    $("ending").textContent = body.finished || body.signable ? body.ending : _("Match {state}: sign after the final whistle", { state: body.ending });
    const struck = body.summary_struck || [];
    $("summary").replaceChildren(...body.summary.map((s, i) => item(s, struck[i] ? "struck" : "")));
    $("hash").textContent = body.chain.short || "—";
    $("verify").href = body.verify_url;
    $("sumula").href = `/report/${body.match_id}`;
    $("signed").replaceChildren(...(body.signatures.length ? body.signatures.map((s) => {
      const li = item("", s.valid ? "" : "invalid");
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = `${s.label}: ${s.name}`;
      // the hash each one signed, short as the page shows it (walk 49b L6)
      const over = s.signs ? _("signed over {hash}", { hash: s.signs.slice(0, 12) }) : _("signed");
      li.append(who, " — " + (s.valid ? over : s.reason ? _("no longer valid (match reopened: {reason})", { reason: s.reason }) : _("no longer valid (match reopened)")));
      if (s.image && s.image.startsWith("data:image/png;base64,")) {
        const img = document.createElement("img");
        img.src = s.image;
        img.alt = _("signature of {name}", { name: s.name });
        li.append(img);
      }
      return li;
    }) : [item(_("nobody has signed yet"))]));
    // signatures come after the final whistle; once everyone has signed, the pad goes and the
    // page says so (issue 31 §13: an empty "Quem assina" and the pad stayed)
    const everyone = body.roles.length > 0 && body.roles.every(
      (r) => body.signatures.some((s) => s.valid && s.role === r.role));
    const signable = body.signable !== undefined ? body.signable : body.finished;
    $("sign-card").hidden = !signable || everyone;
    $("all-signed").hidden = !(signable && everyone);
    // what the hash is: the log you sign; once someone signed, the log now, with the
    // signatures, which the next one signs (each signature says the one it signed: walk 49b
    // L6 read two hashes under one label); everyone signed, the final one
    const someone = body.signatures.some((s) => s.valid);
    $("hash-label").textContent = signable && everyone
      ? _("Final fingerprint (SHA-256) of the log, signatures included:")
      : someone ? _("Fingerprint (SHA-256) of the log now, signatures included — the next to sign signs this one:")
        : _("Hash of the log you sign:");
    // only the table's current match, closed by the referee, is reopened (an earlier one is
    // signed here, corrected nowhere: walk 45g G8)
    $("reopen-card").hidden = !body.closed || body.current === false;
    // the table's earlier matches of the day still unsigned: each opens here to be signed
    const earlier = body.unsigned || [];
    $("earlier").replaceChildren(...earlier.map((m) => {
      const li = item("");
      const a = document.createElement("a");
      const params = new URLSearchParams(forTable);
      params.set("match", String(m.id));
      a.href = `/assinar?${params}`;
      a.textContent = m.title;
      li.append(a);
      return li;
    }));
    $("earlier-card").hidden = earlier.length === 0;
    const role = $("role");
    const chosen = role.value;
    role.replaceChildren(...body.roles.map((r) => {
      const o = document.createElement("option");
      o.value = r.role;
      const done = body.signatures.some((s) => s.valid && s.role === r.role);
      o.textContent = r.label + (done ? " (" + _("already signed") + ")" : "");
      o.disabled = done;
      return o;
    }));
    const free = body.roles.find((r) => !body.signatures.some((s) => s.valid && s.role === r.role));
    role.value = chosen && !role.querySelector(`option[value="${chosen}"]`).disabled ? chosen : (free ? free.role : "");
  }

  // the drawing pad: pointer events (finger, pen or mouse), drawn at the screen's resolution
  const pad = $("pad");
  const ctx = pad.getContext("2d");
  function fit() {
    const ratio = window.devicePixelRatio || 1;
    pad.width = pad.clientWidth * ratio;
    pad.height = pad.clientHeight * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.lineWidth = 3.5;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#000";
    drawn = false;
  }
  let last = null;
  const at = (e) => { const b = pad.getBoundingClientRect(); return [e.clientX - b.left, e.clientY - b.top]; };
  pad.addEventListener("pointerdown", (e) => { pad.setPointerCapture(e.pointerId); last = at(e); });
  pad.addEventListener("pointermove", (e) => {
    if (!last) return;
    const p = at(e);
    ctx.beginPath(); ctx.moveTo(...last); ctx.lineTo(...p); ctx.stroke();
    last = p; drawn = true;
  });
  const up = () => { last = null; };
  pad.addEventListener("pointerup", up);
  pad.addEventListener("pointercancel", up);
  $("clear").addEventListener("click", fit);

  // the drawing, scaled down to a small PNG (a signature needs no more than 400 × 150)
  function png() {
    const small = document.createElement("canvas");
    const scale = Math.min(1, 400 / pad.width, 150 / pad.height);
    small.width = Math.round(pad.width * scale);
    small.height = Math.round(pad.height * scale);
    const s = small.getContext("2d");
    s.fillStyle = "#fff";
    s.fillRect(0, 0, small.width, small.height);
    s.drawImage(pad, 0, 0, small.width, small.height);
    return small.toDataURL("image/png");
  }

  async function post(path, data) {
    const r = await fetch(`${path}${forTable ? `?${forTable}` : ""}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token()}`,
                 "Accept-Language": pageLang },
      body: JSON.stringify({ ...data, ...(table ? { table } : {}) }),
    });
    const body = await r.json().catch(() => ({}));
    return { ok: r.ok, error: body.error || _("error {status}", { status: r.status }) };
  }

  $("send").addEventListener("click", async () => {
    if (!view) return;
    if (!$("role").value) { say(_("Everyone has signed"), false); return; }
    const name = $("name").value.trim();
    if (!name) { say(_("Write the name of the person signing"), false); return; }
    if (!drawn) { say(_("Sign with your finger in the box before sending"), false); return; }
    const out = await post("/api/assinar", { role: $("role").value, name, image: png(), signs: view.chain.final_hash, match: view.match_id });
    if (out.ok) {
      say(_("Signature of {name} recorded", { name }), true);
      $("name").value = "";
      fit();
    } else say(out.error, false);
    await load();
  });

  $("reopen").addEventListener("click", async () => {
    const reason = $("reason").value.trim();
    if (!reason) { say(_("Say why the match is reopened"), false); return; }
    const out = await post("/api/reabrir", { reason, match: view.match_id });
    if (out.ok) { say(_("Match reopened: the earlier signatures no longer hold"), true); $("reason").value = ""; }
    else say(out.error, false);
    await load();
  });

  window.addEventListener("resize", () => { if (!drawn) fit(); });
  load().then(fit); // the pad is sized once its card is shown
})();
