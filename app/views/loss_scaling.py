"""Page 3, loss scaling: compute_average_loss vs the classic mistake; mixed precision.

Glossary:
  correct  -- per-example losses summed and divided by the global batch on each replica,
              then all-reduced with SUM: the true mean.
  mistake  -- each replica's mean, summed: N times the true loss and gradient.
"""

import common
import streamlit as st

from simdist.viz import loss, mixed_precision
from simdist.viz import loss_figures as figs

PAGE = "loss"
common.init(PAGE)
st.title("Loss scaling")

tab1, tab2 = st.tabs(["compute_average_loss", "mixed precision"])
with tab1:
    c = st.columns(3)
    rep = common.widget(PAGE, "rep", c[0])
    gb = common.widget(PAGE, "gb", c[1])
    seed = common.widget(PAGE, "seed", c[2])
    st.code("""with tf.GradientTape() as tape:
    per_example = tf.square(w * x - y)
    loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)  # right
    # loss = tf.reduce_mean(per_example)                                          # mistake
grad = tape.gradient(loss, w)
strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(step, ...), axis=None)""",
            language="python")
    comp = loss.compare_losses(rep, gb, seed=seed)
    st.session_state["loss.result"] = comp
    m = st.columns(3)
    m[0].metric("true mean loss", f"{comp.true_loss:.5f}")
    m[1].metric("compute_average_loss + SUM", f"{comp.correct_loss:.5f}")
    m[2].metric("reduce_mean + SUM (mistake)", f"{comp.wrong_loss:.5f}",
                f"x{comp.wrong_loss / comp.true_loss:.2f}" if comp.true_loss else None,
                delta_color="inverse")
    left, right = st.columns(2)
    left.plotly_chart(figs.parts_figure(comp), key="parts", width="stretch")
    right.plotly_chart(figs.gradient_figure(comp), key="grads", width="stretch")
    st.plotly_chart(figs.per_example_figure(comp), key="per_example",
                    width="stretch")
    st.caption("With a partial last batch the mistake is not even exactly N times: a "
               "replica with fewer (or no) examples still counts as a whole batch.")

with tab2:
    c = st.columns(3)
    scale = common.widget(PAGE, "scale", c[0])
    growth = common.widget(PAGE, "growth", c[1])
    steps = common.widget(PAGE, "mpsteps", c[2])
    hist = mixed_precision.loss_scale_history(steps, 2.0 ** scale, growth, seed=seed)
    st.session_state["loss.scales"] = hist.scale
    skipped = hist.applied.count(False)
    st.markdown(f"LossScaleOptimizer(SGD, initial_scale=2^{scale}, "
                f"dynamic_growth_steps={growth}): **{skipped} of {steps}** steps overflowed "
                "in float16 and were skipped (scale halved); the scale doubles after "
                f"{growth} finite steps in a row.")
    st.plotly_chart(figs.scale_figure(hist), key="scale", width="stretch")
    grads = mixed_precision.sample_gradients(seed=seed)
    u0, u1 = mixed_precision.underflow(grads, 1.0), mixed_precision.underflow(grads, 2.0 ** scale)
    st.markdown(f"float16 without scaling: **{u0['zero']}** of {u0['total']} gradients "
                f"become 0; scaled by 2^{scale}: **{u1['zero']}** become 0, "
                f"**{u1['inf']}** overflow.")
    st.plotly_chart(figs.underflow_figure(grads, 2.0 ** scale), key="underflow",
                    width="stretch")

common.sync_url(PAGE, {"rep": rep, "gb": gb, "seed": seed, "scale": scale,
                       "growth": growth, "mpsteps": steps})
