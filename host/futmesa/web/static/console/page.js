// The console page's shared words and moment: its language, its table, the referee's name,
// the one line of feedback, a team's name, and `view` — the mutable state every module reads
// (the match state from the host, the team and the disc the referee is entering).


export const view = {
  state: null, // the table's state, as the host last sent it
  side: "A", // the team the action buttons serve
  shownTurn: null, // the turn the side buttons last followed
  restartShown: null, // the restart (kind, side, taken) the ball's field was last reset for
  sentRestart: null, // the newest act sent ({id: its input id, restart: restartShown then})
  pickedAt: 0, // when the referee last picked a side, keyed a disc or opened a play sheet
  disc: "", // the disc number typed on the keypad
  freshDisc: true, // the next digit starts a new number
  tokenWorked: false, // accepted earlier on this page: a refusal now means its link was replaced
  linkLost: false, // the connection to the host dropped: its token is checked on return
  closed: false, // the súmula is signed: no more inputs until it is reopened
  lastReferee: null, // the last live referee entry, for U (void last)
  goalsSeen: null, // the goals (their entries) of the state last drawn, to say a new one
  keptSheetAt: 0, // when an act was not sent for what its sheet lacks: the sheet stays open
  queued: 0, // actions waiting in the outbox (a shot asked offline: its outcome is offered)
};

export const $ = (id) => document.getElementById(id);
// the page's language: the host rendered it (?lang=, the browser's), <html lang> says which
export const LANG = document.documentElement.lang === "en" ? "en" : "pt";
export const _ = FM.tr(LANG);
export const table = Referee.table;
export const forTable = Referee.forTable;
export const KEEP_PICK_MS = 15000;
export const author = () => ($("referee").value || localStorage.getItem("futmesa.referee") || _("referee"));
export function say(text, kind) {
  draw(text, kind);
  // the referee's own answer (✓ / ✗): the table's news is said beside it (sayBeside)
  answer = kind === "ok" || kind === "bad" ? { text: String(text), kind, shown: String(text) } : null;
  refusal = kind === "bad" ? { text: String(text), mark: logMark(), at: Date.now(), after: "" } : null;
}
function draw(text, kind) {
  const el = $("result");
  // "⚽" is drawn by the page (.ball in console.css), never asked of a font the phone may
  // not have (an empty box: walk 45h-a, low); the character stays in the text
  const parts = String(text).split("⚽");
  el.replaceChildren(parts[0], ...parts.slice(1).flatMap((rest) => {
    const ball = document.createElement("span");
    ball.className = "ball";
    ball.textContent = "⚽";
    return [ball, rest];
  }));
  el.className = `result ${kind || ""}`;
}

// The referee's own answer stays on the line (docs/operating.md §3: "Toda ação responde na
// hora com ✓ e o que foi registrado"): the table's news on a later entry is said beside it,
// never in its place — walk52b M2: "✓ Falta de Botafogo …" gave way a second later to "»
// Pergunta encerrada sem resposta: …", the question his foul's next lance withdrew. A ✓ keeps
// the line for a side effect only (`sideEffect`: a fact of the table's own, a lance that ran
// out, takes it at once, walk 45i-b M-c); a ✗ for any news until it could be read, the news
// alone after (dropStaleRefusal). Returns whether it was said so.
let answer = null; // the answer on the line: its words, its kind, the line as drawn
export function sayBeside(news, sideEffect) {
  const a = answer;
  if (!a || $("result").textContent !== a.shown || (a.kind === "ok" && !sideEffect)) return false;
  a.shown = `${a.text} · ${news}`;
  draw(a.shown, a.kind);
  if (refusal) { refusal.text = a.shown; refusal.after = news; }
  return true;
}

// A refusal ("✗ …") is about the state it was refused in: once the match moves on (a new
// entry in its log, or another match) it goes, after it could be read — never a stale "O lance
// é de Botafogo" while the lance is Alvorada's (walk 45g, low). render() calls this.
const REFUSAL_READ_MS = 2500;
let refusal = null; // the refusal on the line: its words, the log it was said at, when
const logMark = () => {
  const st = view.state;
  return st ? `${st.match_id}:${st.match ? st.match.log_length : ""}` : "";
};
export function dropStaleRefusal() {
  const r = refusal;
  if (!r || r.mark === logMark()) return;
  if ($("result").textContent !== r.text) { refusal = null; return; }
  const wait = r.at + REFUSAL_READ_MS - Date.now();
  if (wait > 0) { setTimeout(() => { if (refusal === r) dropStaleRefusal(); }, wait); return; }
  say(r.after, r.after ? "news" : ""); // the news said beside it stays
}

// the console's own question before an act it cannot take back (Nova partida, the next match,
// voiding the last entry): a box on the page in the console's style, answered with its two
// buttons (Esc: no) — never the browser's confirm() (walk 45g). Resolves true for yes.
// A question with a yes; `question` is its words, or a function asked again four times a
// second for words that change while it is open (a time counting down): when it answers
// true the question has nothing left to ask and goes as a yes, when null as a no.
export function ask(question, yes) {
  const box = $("ask");
  const words = typeof question === "function" ? question : () => question;
  const now = () => {
    const w = words();
    if (typeof w === "string") { $("ask-text").textContent = w; return; }
    if (box.open) box.close(w === true ? "yes" : "no");
  };
  $("ask-yes").textContent = yes || _("Yes");
  box.returnValue = "";
  now();
  const tick = typeof question === "function" ? setInterval(now, 250) : null;
  return new Promise((resolve) => {
    box.addEventListener("close", () => {
      if (tick != null) clearInterval(tick);
      resolve(box.returnValue === "yes");
    }, { once: true });
    if (typeof words() === "string") box.showModal(); else resolve(words() === true);
  });
}

export function name(s) {
  const t = view.state && view.state.teams && view.state.teams[s];
  if (t && t.name) return String(t.name);
  return s === "A" ? _("home team") : _("away team");
}
export function show(id, on) { $(id).hidden = !on; return on; }
