"""Run in a subprocess with ``C4TUI_SIZE`` set: play certificates' rules as a strategy
against every reply of the opponent, to the end of the game (small boards).

``python tests/explain_playout.py N SEED MIN_DISCS MAX_DISCS [-v]``: N random positions
with White to move that the rules alone prove for Black (tree 0); for each, every line of
White's moves is played against Black's answers, taken from the certificate alone:

* the pairings: claimeven, vertical, the parts of aftereven, before and specialbefore
  (the lower square answered with the upper), baseinverse and specialbefore's two
  playable squares (each with the other), lowinverse (each column's lower with its upper);
* highinverse: the lower square entered is answered with the middle one; then the other
  column's middle and upper squares are a claimeven, and the entered column's upper
  square and the other column's lower one (if playable) a baseinverse (Allis 6.6);
* baseclaim: the first square answered with the third, then the second and the even
  square a claimeven; the second or third answered with the other, then the first and the
  even square a baseinverse (Allis 6.7);
* a square no rule uses: the free square above it, else a free playable square (the
  bottom of an odd run of free squares first);
* a four of its own whenever it can; and when nothing else is left, a vertical or a
  baseinverse started by Black itself (one square of the pair is Black's, the other is
  free from then on), a lowinverse's column once the other is filled, or a baseclaim's
  third square (the second and the even one stay a claimeven).

Prints one JSON object: the certificates played, those skipped (a rule not written here),
and the lines ended by a four of the opponent ("bad"), by the strategy having no answer
("stuck"), or otherwise ("ok").
"""
import json
import random
import sys

from c4tui.engine.board.geometry import H1, HEIGHT, WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.explain import explain
from c4tui.engine.explain.check import parse_sq


def bit(name: str) -> int:
    """The bit index of a square's name."""
    c, r = parse_sq(name)
    return c * H1 + r - 1


class Strategy:
    """The controller's answers: what each rule promises, and follow-up elsewhere."""

    def __init__(self, uses) -> None:
        self.R, self.used, self.vert = {}, set(), []  # vert: (lower, upper, other part)
        self.pairs = []  # baseinverses: the controller may take either square itself
        self.hi = []
        self.bc = []
        for u in uses:
            sq = [bit(s) for s in u.squares]
            self.used |= set(sq)
            k = u.rule
            if k in ("claimeven", "vertical"):
                self.R[sq[0]] = sq[1]
                if k == "vertical":
                    self.vert.append((sq[0], sq[1], None))
            elif k == "baseinverse":
                self.R[sq[0]], self.R[sq[1]] = sq[1], sq[0]
                self.pairs.append((sq[0], sq[1]))
            elif k == "highinverse":
                self.hi.append(tuple(sq))
            elif k == "baseclaim":
                self.bc.append(tuple(sq))
            elif k == "lowinverse":
                self.R[sq[0]], self.R[sq[2]] = sq[1], sq[3]
                self.vert += [(sq[0], sq[1], (sq[2], sq[3])), (sq[2], sq[3], (sq[0], sq[1]))]
            elif k in ("aftereven", "before", "specialbefore"):
                start = 0
                if k == "specialbefore":  # its two playable squares: a baseinverse
                    self.R[sq[0]], self.R[sq[1]] = sq[1], sq[0]
                    self.pairs.append((sq[0], sq[1]))
                    start = 2
                g = set()
                if u.group:
                    a, b = u.group.split("-")
                    (c1, r1), (c2, r2) = parse_sq(a), parse_sq(b)
                    dc, dr = (c2 - c1) // 3, (r2 - r1) // 3
                    g = {(c1 + i * dc) * H1 + r1 - 1 + i * dr for i in range(4)}
                for i in range(start, len(sq), 2):
                    self.R[sq[i]] = sq[i + 1]
                    if k != "aftereven" and sq[i] in g:  # a vertical from the group's square
                        self.vert.append((sq[i], sq[i + 1], None))
            else:
                raise LookupError(k)
        # a vertical shared with a lowinverse is started only as the lowinverse allows
        li = {(lo, hi): other for lo, hi, other in self.vert if other is not None}
        self.vert = [(lo, hi, other if other is not None else li.get((lo, hi)))
                     for lo, hi, other in self.vert]
        for l1, m1, _u1, l2, m2, _u2 in self.hi:
            self.R[l1], self.R[l2] = m1, m2

    def reply(self, pos: Position, last: int) -> int | None:
        """The column to answer the opponent's disc on bit ``last`` with, or None."""
        w = pos.winning_move()
        if w is not None:
            return w
        def filled(b):
            return pos.mask >> b & 1
        def playable(b):
            return pos.height(b // H1) == b % H1
        for h in list(self.hi):
            l1, m1, u1, l2, m2, u2 = h
            for lo, _mi, up, lo2, mi2, up2 in ((l1, m1, u1, l2, m2, u2), (l2, m2, u2, l1, m1, u1)):
                if last == lo:  # the opponent entered: the middle, then a claimeven beside
                    self.hi.remove(h)
                    self.R.pop(lo2, None)
                    self.R[mi2] = up2
                    if pos.height(lo2 // H1) == lo2 % H1:  # and the upper with the other
                        self.R[up], self.R[lo2] = lo2, up  # lower: a baseinverse (Allis 6.6)
                        self.pairs.append((up, lo2))
                    else:
                        self.used.discard(up)
                        self.used.discard(lo2)
                    break
            else:
                continue
            break
        for b in list(self.bc):
            p1, p2, q, p3 = b
            if last in (p1, p2, p3):
                self.bc.remove(b)
                if last == p1:  # the third, then a claimeven on the second
                    self.R[p2] = q
                    answer = p3
                else:  # the other of the second and third, then a baseinverse first/even
                    self.R[p1], self.R[q] = q, p1
                    self.pairs.append((p1, q))
                    answer = p3 if last == p2 else p2
                return answer // H1
        if last in self.R:
            t = self.R.pop(last)
            if not filled(t) and playable(t):
                self.R.pop(t, None)
                return t // H1
            return None
        def free(b):
            return b not in self.used and not filled(b)
        up = last + 1
        if last % H1 < HEIGHT - 1 and free(up):
            return up // H1
        cands = [c * H1 + pos.height(c) for c in range(WIDTH)
                 if pos.height(c) < HEIGHT and free(c * H1 + pos.height(c))]

        def run(b):
            n = 0
            while b % H1 < HEIGHT and free(b):
                n, b = n + 1, b + 1
            return n
        pick = [b for b in cands if run(b) % 2] or cands
        if pick:
            return pick[0] // H1
        for lo, hi, other in self.vert:
            if playable(lo) and not filled(hi) and (other is None or all(filled(b) for b in other)):
                self.R.pop(lo, None)
                self.used.discard(hi)  # one of the two is ours: the upper is free now
                return lo // H1
        for b in list(self.bc):  # take the third square: the second and the even one
            p1, p2, q, p3 = b  # stay a claimeven, the first is free
            if playable(p3):
                self.bc.remove(b)
                self.R[p2] = q
                self.used.discard(p1)
                return p3 // H1
        for a, b in self.pairs:
            for x, y in ((a, b), (b, a)):
                if playable(x) and not filled(y):
                    self.R.pop(x, None)
                    self.R.pop(y, None)
                    self.used.discard(y)  # one of the two is ours: the other is free now
                    return x // H1
        return None


def play_all(pos, uses, side, stats, seen, strat_state) -> None:
    """Every opponent move from ``pos``, each answered by a copy of the strategy."""
    key = (pos.current, pos.mask, tuple(sorted(strat_state.R.items())),
           tuple(sorted(strat_state.used)))
    if key in seen:
        return
    seen.add(key)
    for c in pos.legal_moves():
        p = pos.copy()
        p.play(c)
        if p.is_over:
            stats["bad" if p.winner == 1 - side else "ok"] += 1
            continue
        st = Strategy.__new__(Strategy)
        st.R, st.used, st.vert = dict(strat_state.R), set(strat_state.used), list(strat_state.vert)
        st.pairs = list(strat_state.pairs)
        st.hi = list(strat_state.hi)
        st.bc = list(strat_state.bc)
        r = st.reply(p, c * H1 + p.height(c) - 1)
        if r is None or not p.can_play(r):
            stats["stuck"] += 1
            if stats["stuck"] == 1 and "-v" in sys.argv:
                print("STUCK", p.digits(), [(u.rule, u.squares) for u in uses])
                print(p)
            continue
        p.play(r)
        if p.is_over:
            stats["bad" if p.winner == 1 - side else "ok"] += 1
            continue
        play_all(p, uses, side, stats, seen, st)


def main() -> None:
    n, seed, lo, hi = map(int, sys.argv[1:5])
    rng = random.Random(seed)
    tot = {"ok": 0, "bad": 0, "stuck": 0}
    certs = skipped = 0
    while certs < n:
        pos = Position()
        k = rng.randint(lo, hi)
        while pos.ply < k and not pos.is_over:
            pos.play(rng.choice(pos.legal_moves()))
        if pos.is_over or pos.to_move != 0:
            continue
        cert = explain(pos, side=1, budget=0.0001)
        if cert.proves is None or cert.tree:
            continue
        try:
            strat = Strategy(cert.proof.rules)
        except LookupError:
            skipped += 1
            continue
        certs += 1
        st = {"ok": 0, "bad": 0, "stuck": 0}
        play_all(pos, cert.proof.rules, 1, st, set(), strat)
        if st["bad"]:
            print("BAD", pos.digits(), [(u.rule, u.squares) for u in cert.proof.rules], st)
        for key in tot:
            tot[key] += st[key]
    print(json.dumps({"certs": certs, "skipped": skipped, **tot}))


if __name__ == "__main__":
    main()
