"""All-to-all: rank i's chunk j goes to rank j, landing in its chunk i.

Glossary:
  out of place -- every transfer reads the untouched inputs (a rank's chunk j may already
                  have been overwritten by what it received when it is its turn to send it).
  pairwise     -- p-1 steps; in step s rank i sends to rank i+s (one peer per step, so no
                  link is oversubscribed on a ring or switch).
  direct       -- one step with all p(p-1) transfers at once (NCCL's grouped send/recv).
Mirrors NCCL's all-to-all as grouped ncclSend/ncclRecv (nccl-tests src/alltoall.cu) and
MPICH's pairwise-exchange MPIR_Alltoall_intra_pairwise.
"""

from __future__ import annotations

from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Schedule, Step, Transfer


def build_pairwise(p):
    # Exchange: in step s rank i sends its slot i+s to rank i+s, which stores it in slot i;
    # one peer per rank per step, so no link carries two messages at once.
    steps = [Step("exchange", [Transfer(i, (i + s) % p, (i + s) % p, False, 1, i)
                               for i in range(p)]) for s in range(1, p)]
    return Schedule("all_to_all", "pairwise", p, p, steps, inplace=False)


def build_direct(p):
    # Exchange: all p(p-1) messages in one step, as NCCL's grouped send/recv posts them.
    ts = [Transfer(i, j, j, False, 1, i) for i in range(p) for j in range(p) if i != j]
    return Schedule("all_to_all", "direct", p, p, [Step("exchange", ts)] if ts else [],
                    inplace=False)


register(Algorithm("all_to_all.pairwise", "all_to_all",
                   "Pairwise exchange all-to-all: p-1 steps, one peer per step.",
                   build_pairwise, mirrors="MPICH MPIR_Alltoall_intra_pairwise"))
register(Algorithm("all_to_all.direct", "all_to_all",
                   "Direct all-to-all: every pair at once in one step (NCCL send/recv).",
                   build_direct, mirrors="nccl-tests src/alltoall.cu"))
