"""Page 3, loss scaling: compute_average_loss vs the classic mistake; mixed precision.

Glossary:
  correct  -- per-example losses summed and divided by the global batch on each replica,
              then all-reduced with SUM: the true mean.
  mistake  -- each replica's mean, summed: N times the true loss and gradient.
  player   -- the mixed-precision tab steps through one real LossScaleOptimizer run, one
              training step per position (``step`` in the URL, 0 = training step 1).
"""

import math

import common
import streamlit as st

from simdist.viz import loss, mixed_precision
from simdist.viz import loss_figures as figs
from simdist.viz import mixed_precision_figures as mpfigs

PAGE = "loss"
common.init(PAGE)
st.title("Loss scaling")
st.markdown("Two ways a loss is *scaled* in distributed training: divided by the **global** "
            "batch so that the replicas' sum is the mean (`compute_average_loss`), and "
            "multiplied by a **loss scale** so that float16 gradients neither vanish nor "
            "overflow (`LossScaleOptimizer`). Both are computed here by simdist itself.")


@st.cache_resource(max_entries=16, show_spinner=False)
def get_mp_run(steps, scale, growth, seed):
    return mixed_precision.run_loss_scaling(steps, 2.0 ** scale, growth, seed=seed)


# The figures are cached with what they draw: plotly validates every value it is given, and
# drawing them took most of a rerun (a player step redraws only the mixed-precision tab's
# two). st.plotly_chart copies a figure, never changes it.
@st.cache_resource(max_entries=32, show_spinner=False)
def get_comparison(rep, gb, seed):
    """compare_losses and its figures: the loss parts, the gradients, per example."""
    comp = loss.compare_losses(rep, gb, seed=seed)
    return comp, (figs.parts_figure(comp), figs.gradient_figure(comp),
                  figs.per_example_figure(comp))


@st.cache_resource(max_entries=64, show_spinner=False)
def get_mp_figures(steps, scale, growth, seed, pos):
    """The run's loss scales up to training step ``pos`` and that step's gradients."""
    run = get_mp_run(steps, scale, growth, seed)
    return mpfigs.scale_figure(run, pos + 1), mpfigs.gradient_figure(run[pos])


def _plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


tab1, tab2 = st.tabs(["compute_average_loss", "mixed precision"])
with tab1:
    c = st.columns(3)
    rep = common.widget(PAGE, "rep", c[0], help="MirroredStrategy replicas (simulated GPUs)")
    gb = common.widget(PAGE, "gb", c[1], help="examples per global batch, split over replicas")
    seed = common.widget(PAGE, "seed", c[2], help="seed of this tab's (x, y) batch only")
    st.code("""with tf.GradientTape() as tape:
    per_example = tf.square(w * x - y)
    loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)  # right
    # loss = tf.reduce_mean(per_example)                                          # mistake
grad = tape.gradient(loss, w)
strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(step, ...), axis=None)""",
            language="python")
    comp, (parts, grads, per_example) = get_comparison(rep, gb, seed)
    st.session_state["loss.result"] = comp
    sizes = [len(p) for p in comp.per_replica_losses]
    empty = figs.empty_replicas(comp)
    busy = len(sizes) - len(empty)
    m = st.columns(3)
    m[0].metric("true mean loss", figs.fmt(comp.true_loss))
    m[1].metric("compute_average_loss + SUM", figs.fmt(comp.correct_loss))
    ratio = comp.wrong_loss / comp.true_loss if comp.true_loss else math.nan
    m[2].metric("reduce_mean + SUM (mistake)", figs.fmt(comp.wrong_loss),
                None if math.isnan(ratio) else f"x{ratio:.2f} the true mean",
                delta_color="off")
    left, right = st.columns(2)
    left.plotly_chart(parts, key="parts", width="stretch")
    right.plotly_chart(grads, key="grads", width="stretch")
    st.plotly_chart(per_example, key="per_example", width="stretch")
    text = (f"TF splits the global batch of {gb} into per-replica batches of {sizes}. "
            f"compute_average_loss divides each replica's sum by {gb}, so the parts add up "
            "to the true mean")
    text += (f" (an empty replica adds 0). reduce_mean divides by the replica's own size: "
             f"the mean of 0 examples is 0/0 = nan, and nan + anything is nan, so the "
             f"mistaken loss is nan; its gradient is {busy} times the true one (an empty "
             f"replica's gradient is 0, the other {_plural(busy, 'replica')} each give "
             "about the full gradient)." if empty else ".")
    if not empty and len(set(sizes)) > 1:
        text += (f" With unequal batches the mistake is not exactly {rep} times: each "
                 "replica's mean weights its own examples by 1/its size.")
    st.caption(text)

with tab2:
    st.markdown("One real `LossScaleOptimizer` run: a float16 layer `y = w * x` (weights "
                "kept in float32, `mixed_float16`), loss `mean(y)` in float32; every 7th "
                "batch holds outliers. Step through it: each training step scales the loss, "
                "back-propagates in float16, checks the gradients for inf/NaN, unscales, "
                "then applies them or skips the step and halves the scale.")
    c = st.columns(4)
    scale = common.widget(PAGE, "scale", c[0], help="LossScaleOptimizer(initial_scale=...)")
    growth = common.widget(PAGE, "growth", c[1],
                           help="dynamic_growth_steps: finite steps in a row before the "
                                "scale doubles")
    steps = common.widget(PAGE, "mpsteps", c[2], help="training steps in the run")
    mpseed = common.widget(PAGE, "mpseed", c[3],
                           help="seed of this tab's inputs (independent of the data seed of "
                                "the compute_average_loss tab)")
    run = get_mp_run(steps, scale, growth, mpseed)
    st.session_state["loss.mp"] = run
    st.session_state["loss.scales"] = [s.scale for s in run]
    pos = common.player(PAGE, len(run) - 1, unit="training step", first=1)
    s = run[pos]
    st.session_state["loss.mpstep"] = s
    n = s.counts()
    skipped = sum(not r.applied for r in run[:pos + 1])
    st.markdown(f"**Training step {s.step} of {len(run)}** "
                f"({_plural(skipped, 'step')} skipped so far)")
    m = st.columns(3) + st.columns(3)   # two rows: readable at 1024 px
    m[0].metric("loss (float32)", f"{s.loss:.4g}")
    m[1].metric("loss scale", mpfigs.pow2(s.scale))
    m[2].metric("scaled loss", f"{s.scaled_loss:.4g}")
    m[3].metric("gradients finite?", "yes" if s.finite else "no: inf")
    m[4].metric("decision", "apply" if s.applied else "skip, halve")
    m[5].metric("growth counter", f"{s.counter} of {growth}")
    nonzero = [abs(float(v)) for v in s.unscaled if v != 0 and math.isfinite(v)]
    unscale = (f"{min(nonzero):.3g} .. {max(nonzero):.3g}" if nonzero else "all zero")
    if s.applied:
        after = ("reached the growth steps: the scale doubles to "
                 f"{mpfigs.pow2(s.next_scale)}" if s.next_scale > s.scale
                 else f"the scale stays {mpfigs.pow2(s.scale)}")
        decision = f"**apply** them with SGD; growth counter {s.counter} of {growth}, {after}"
    else:
        decision = (f"**skip** the step (weights unchanged), **halve** the scale to "
                    f"{mpfigs.pow2(s.next_scale)}, reset the growth counter to 0")
    left, right = st.columns(2)
    left.markdown(
        f"1. loss = mean(y) = `{s.loss:.6g}`; scaled loss = loss x {mpfigs.pow2(s.scale)} = "
        f"`{s.scaled_loss:.6g}`\n"
        f"2. backward pass in float16: of {len(s.exact)} gradients "
        + ", ".join(f"**{v}** {k}" for k, v in n.items()) + "\n"
        f"3. finite check: {'every gradient is finite' if s.finite else 'an inf was found'}\n"
        f"4. unscale: gradients / {mpfigs.pow2(s.scale)} -> |g| in {unscale}\n"
        f"5. decision: {decision}")
    scales, gradients = get_mp_figures(steps, scale, growth, mpseed, pos)
    right.plotly_chart(scales, key="mp_scale", width="stretch")
    st.plotly_chart(gradients, key="mp_grads", width="stretch")

common.sync_url(PAGE, {"rep": rep, "gb": gb, "seed": seed, "scale": scale,
                       "growth": growth, "mpsteps": steps, "mpseed": mpseed, "step": pos})
common.keep_playing(PAGE, len(run) - 1)
