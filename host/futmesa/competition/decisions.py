"""The organiser's decisions on top of the results: walk-overs and abandoned matches (a
replay scheduled), sanctions (a match's points lost, 001
Art. XLIII; a disqualification, 003 Art. 85), the disqualifications the tables report for
the organiser to confirm, and the tie-break shoot-outs. Kept in the competition's file
(:class:`~futmesa.competition.db.CompetitionDB`, its ``decisions``); never a running total:
the standings apply them every time.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from futmesa.competition import actions
from futmesa.competition.errors import CompetitionError
from futmesa.i18n import _
from futmesa.rules import load_ruleset

if TYPE_CHECKING:
    from futmesa.competition.db import CompetitionDB

SANCTIONS = {"match_points": "001 Art. XLIII", "competition_points": "003 Art. 85"}


def comp_teams(comp: dict[str, Any]) -> set[str]:
    return {t for ts in comp["groups"].values() for t in ts}


class Decisions:
    def __init__(self, store: CompetitionDB) -> None:
        self.store = store

    def sanctions(self, cid: int) -> list[dict[str, Any]]:
        return self.store.rows("SELECT * FROM comp_sanctions WHERE competition_id=?"
                          " AND revoked_at IS NULL ORDER BY id", (cid,))

    def revoke_sanction(self, sanction_id: int) -> None:
        """Withdraw a sanction (kept, marked revoked). A withdrawn disqualification also
        withdraws the walk-overs it gave the opponents: those matches are to be played."""
        rows = self.store.rows("SELECT * FROM comp_sanctions WHERE id=? AND revoked_at IS NULL",
                          (sanction_id,))
        if not rows:
            raise CompetitionError(_("no sanction {id} in force: see `futmesa competition "
                                     "standings`").format(id=sanction_id))
        s = rows[0]
        with self.store.tx() as db:
            db.execute("UPDATE comp_sanctions SET revoked_at=? WHERE id=?",
                       (time.time(), sanction_id))
            if s["kind"] == "competition_points":
                for m in self.store.matches(s["competition_id"]):
                    r = m["result"]
                    if (m["status"] == "walkover" and r and r["uid"] == f"desk:wo:{m['id']}"
                            and "desclassificado" in r["rule"]
                            and s["team"] in (m["team_a"], m["team_b"])):
                        db.execute("DELETE FROM comp_results WHERE match_id=?", (m["id"],))
                        db.execute("UPDATE comp_matches SET status='scheduled', updated_at=?"
                                   " WHERE id=?", (time.time(), m["id"]))

    def add_sanction(self, team: str, kind: str, match_id: int | None = None,
                     rule: str | None = None, note: str = "") -> int:
        """A competition-level sanction: ``match_points`` or ``competition_points``."""
        if kind not in SANCTIONS:
            raise CompetitionError(_("the sanction must be one of {kinds}").format(
                kinds=", ".join(SANCTIONS)))
        comp = self.store.competition()
        if team not in comp_teams(comp):
            raise CompetitionError(_("{team!r} does not play in {name}").format(
                team=team, name=comp["name"]))
        if kind == "match_points":
            if match_id is None:
                raise CompetitionError(_("loss of a match's points needs the match number"))
            m = self.store.match(match_id)
            if team not in (m["team_a"], m["team_b"]):
                raise CompetitionError(_("{team!r} did not play match {id}").format(
                    team=team, id=match_id))
        if rule is None:  # the default article only where the competition's rules are its
            doc = load_ruleset(comp["settings"].ruleset).document  # document's (no 001 in
            rule = SANCTIONS[kind] if SANCTIONS[kind].startswith(f"{doc} ") else ""  # a CBFM day)
        with self.store.tx() as db:
            return int(db.execute(
                "INSERT INTO comp_sanctions(competition_id, team, kind, match_id, rule, note,"
                " created_at) VALUES (?,?,?,?,?,?,?)",
                (comp["id"], team, kind, match_id, rule, note, time.time())).lastrowid or 0)

    def add_report(self, match_id: int, team: str, rule: str, uid: str, note: str = "") -> bool:
        """A table's result says ``team`` was disqualified (003 Art. 85); True when new.

        Nothing is applied: the organiser confirms (a sanction) or dismisses it."""
        m = self.store.match(match_id)
        with self.store.tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO comp_reports(competition_id, match_id, team, rule, uid,"
                " note, created_at) VALUES (?,?,?,?,?,?,?)",
                (m["competition_id"], match_id, team, rule, uid, note, time.time()))
            return cur.rowcount > 0

    def reports(self, cid: int, open_only: bool = False) -> list[dict[str, Any]]:
        return self.store.rows("SELECT * FROM comp_reports WHERE competition_id=?"
                          + (" AND decision IS NULL" if open_only else "") + " ORDER BY id",
                          (cid,))

    def withdraw_reports(self, match_id: int, uid: str, keep: str | None = None) -> int:
        """A corrected result no longer reports these: open reports of ``uid`` are dropped
        (except the one about ``keep``); returns how many."""
        with self.store.tx() as db:
            cur = db.execute(
                "UPDATE comp_reports SET decision='withdrawn', decided_at=? WHERE match_id=?"
                " AND uid=? AND decision IS NULL AND team IS NOT ?",
                (time.time(), match_id, uid, keep))
            return cur.rowcount

    def decide_report(self, report_id: int, confirm: bool) -> int | None:
        """The organiser's decision on a report; confirming adds the disqualification
        (``competition_points``) and returns the sanction's id."""
        rows = self.store.rows("SELECT * FROM comp_reports WHERE id=?", (report_id,))
        if not rows:
            raise CompetitionError(_("no report {id}: see `futmesa competition reports`").format(
                id=report_id))
        r = rows[0]
        if r["decision"] is not None:
            raise CompetitionError(_("report {id} was already decided ({decision})").format(
                id=report_id, decision=r["decision"]))
        sid = None
        if confirm:
            sid = self.add_sanction(r["team"], "competition_points", r["match_id"], r["rule"],
                                    _("table report confirmed ({uid})").format(uid=r["uid"]))
        with self.store.tx() as db:
            db.execute("UPDATE comp_reports SET decision=?, decided_at=?, sanction_id=?"
                       " WHERE id=?", ("confirmed" if confirm else "dismissed", time.time(),
                                       sid, report_id))
        return sid

    def shootouts(self, cid: int) -> dict[str, list[str]]:
        """Per group, the order the tie-break shoot-outs gave (the winner first)."""
        return {r["grp"]: json.loads(r["ranking"]) for r in self.store.rows(
            "SELECT grp, ranking FROM comp_shootouts WHERE competition_id=?", (cid,))}

    def record_shootout(self, cid: int, group: str, ranking: list[str], note: str = "") -> None:
        """The tie-break shoot-out among teams level on every criterion before it: ``ranking``
        (team keys, the winner first) must be exactly the teams it was due between in
        ``group``. CompetitionError saying what to write otherwise."""
        comp = self.store.competition(cid)
        if "shootout" not in comp["settings"].tie_breaks:
            raise CompetitionError(_('this competition has no shoot-out among its tie-breaks: '
                                     'add "shootout" to "tie_breaks" in its settings'))
        rows = self.store.table(cid).get(group)
        if rows is None:
            raise CompetitionError(_("no group {group}: the groups are {groups}").format(
                group=repr(group), groups=", ".join(sorted(self.store.table(cid))) or "—"))
        due = [r["team"] for r in rows if r["shootout_due"]]
        if not due:
            raise CompetitionError(_("no shoot-out is due in group {group}: its places are "
                                     "decided").format(group=group or "—"))
        if sorted(ranking) != sorted(due) or len(set(ranking)) != len(ranking):
            teams = self.store.team_map()
            raise CompetitionError(_("the shoot-out in group {group} is between {teams}: name "
                                     "each of them once, the winner first").format(
                group=group or "—", teams=", ".join(sorted(
                    (teams[k].name if k in teams else k for k in due), key=str.casefold))))
        with self.store.tx() as db:
            db.execute("INSERT INTO comp_shootouts(competition_id, grp, ranking, note,"
                       " created_at) VALUES (?,?,?,?,?) ON CONFLICT(competition_id, grp) DO"
                       " UPDATE SET ranking=excluded.ranking, note=excluded.note,"
                       " created_at=excluded.created_at",
                       (cid, group, json.dumps(ranking), note, time.time()))

    def disqualified(self, cid: int) -> set[str]:
        return {s["team"] for s in self.sanctions(cid) if s["kind"] == "competition_points"}

    def walkover(self, match_id: int, absent: str, note: str = "",
                 confirm: bool = False) -> None:
        """The side ``absent`` ('A'/'B') did not play: the other wins by walk-over (W.O.).
        A match being played at a table is refused unless ``confirm`` (the table's own
        result is then refused). Recorded (competition/actions.py): undone with a reason."""
        m = self.store.match(match_id)
        if absent not in ("A", "B"):
            raise CompetitionError(_("say which side did not show up: A or B"))
        if m["status"] in ("finished", "walkover"):
            raise CompetitionError(_("match {id} already has a result").format(id=match_id))
        if not (m["team_a"] and m["team_b"]):
            raise CompetitionError(_("match {id} has no teams yet").format(id=match_id))
        if m["status"] == "assigned" and not confirm:
            raise CompetitionError(_("match {id} is being played at a table: a walkover "
                                     "ends it there (its result will be refused); to give "
                                     "it anyway, add --confirm").format(id=match_id))
        s = self.store.competition(m["competition_id"])["settings"]
        goals = s.walkover_score
        score = (0, goals) if absent == "A" else (goals, 0)
        self.store.record_result(match_id, f"desk:wo:{match_id}", {
            "score_a": score[0], "score_b": score[1], "winner": "B" if absent == "A" else "A",
            # the reason is shown as "W.O." already: the rule is the note (never "W.O. (W.O.)")
            "reason": "walkover", "rule": note, "detail": {"absent": absent}},
            source="desk")
        actions.record(self.store, m, "walkover", note, absent=absent, status=m["status"])

    def abandon(self, match_id: int, note: str = "") -> int:
        """Abandon a match (no result counts) and schedule its replay; returns the replay's id."""
        m = self.store.match(match_id)
        if m in actions.undecided([m]):
            raise CompetitionError(_("match {id} ended level with no winner: decide who goes "
                                     "through with `futmesa competition decide {id} A|B "
                                     "--reason …`").format(id=match_id))
        if m["status"] in ("finished", "walkover", "abandoned"):
            raise CompetitionError(_("match {id} is {status}: it cannot be abandoned").format(
                id=match_id, status=actions.status_word(m["status"])))
        now = time.time()
        with self.store.tx() as db:
            db.execute("UPDATE comp_matches SET status='abandoned', note=?, updated_at=?"
                       " WHERE id=?", (note, now, match_id))
            last = db.execute("SELECT MAX(slot) FROM comp_matches WHERE competition_id=?",
                              (m["competition_id"],)).fetchone()[0]
            seq = db.execute("SELECT MAX(seq) FROM comp_matches WHERE competition_id=?",
                             (m["competition_id"],)).fetchone()[0]
            rid = int(db.execute(
                "INSERT INTO comp_matches(competition_id, seq, stage, grp, round, label, slot,"
                " planned_table, team_a, team_b, src_a, src_b, replay_of, note, updated_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (m["competition_id"], seq + 1, m["stage"], m["group"], m["round"],
                 m["label"], m["slot"] if m["stage"] == "ko" else last + 1, m["planned_table"],
                 m["team_a"], m["team_b"], m["src_a"], m["src_b"], match_id,
                 _("replay of match {id}").format(id=match_id), now)).lastrowid or 0)
            # a knockout waiting on the abandoned match now waits on its replay
            db.execute("UPDATE comp_matches SET src_a=? WHERE src_a=? AND competition_id=?",
                       (f"winner:{rid}", f"winner:{match_id}", m["competition_id"]))
            db.execute("UPDATE comp_matches SET src_b=? WHERE src_b=? AND competition_id=?",
                       (f"winner:{rid}", f"winner:{match_id}", m["competition_id"]))
        actions.record(self.store, m, "abandon", note, replay=rid, status=m["status"])
        return rid
