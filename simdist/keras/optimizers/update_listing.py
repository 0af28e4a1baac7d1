"""The operations TF's graph lists for the update_step of Adamax, Adadelta, Ftrl and Nadam
in a traced ``apply_gradients`` (optimizer_listing lists the rest of the step: the
all-reduce, clipping, the iterations increment).

Glossary (see optimizer_listing for the reads):
  read before  -- a variable that is the left operand of a Python operator, or the right
                  one after a Python number (``rho * accumulator``): ``s.read(v)`` in the
                  scope, before the op's own Const.
  read inside  -- a variable right of a tensor (``gradient - m``, ``x / lr``): ``v`` given
                  to ``s.op``, read as ``<op>/ReadVariableOp``.
  cond         -- Nadam's ``tf.cond`` on the u_product counter: an ``If`` op of the
                  predicate, the u_product variable's resource (a Placeholder
                  ``cond/input_0``, shared by every cond of the step) and ``u_t``, then
                  ``cond/Identity``; the predicate compares ``iterations + 2`` with the
                  counter TF's trace saw (a Const).

Mirrors tf_keras/src/optimizers/adamax.py, adadelta.py, ftrl.py and nadam.py
(update_step).
"""

from __future__ import annotations

from simdist.framework import dtypes


def _step(s, opt, offset):
    """``tf.cast(self.iterations + offset, float32)``."""
    return s.op("Cast", "Cast", [s.op("add", "AddV2", [s.read(opt.iterations),
                                                      ("y", offset)])], dtype=dtypes.float32)


def adamax(s, opt, grad, variable, index):
    m, u = opt._m[index], opt._u[index]
    step = _step(s, opt, 1)
    power = s.op("Pow", "Pow", [s.cast_x(opt.beta_1), step])
    moved = s.op("mul", "Mul", [s.op("sub", "Sub", [grad, m]), ("y", 1 - opt.beta_1)])
    s.assign("AssignAddVariableOp", m, moved)
    kept = s.op("mul", "Mul", [("x", opt.beta_2), s.read(u)], like=grad)
    s.assign("AssignVariableOp", u, s.op("Maximum", "Maximum", [
        kept, s.op("Abs", "Abs", [grad])]))
    top = s.op("mul", "Mul", [s.read(s.lr), m], like=grad)
    corrected = s.op("sub", "Sub", [("x", 1.0), power], like=power)
    shifted = s.op("add", "AddV2", [s.read(u), ("y", opt.epsilon)])
    bottom = s.op("mul", "Mul", [corrected, shifted], like=grad)
    s.assign("AssignSubVariableOp", variable, s.op("truediv", "RealDiv", [top, bottom]))


def adadelta(s, opt, grad, variable, index):
    acc_grad, acc_delta = opt._accumulated_grads[index], opt._accumulated_delta_vars[index]
    rho = opt.rho

    def moving(slot, value):   # slot.assign(rho * slot + (1 - rho) * value * value)
        kept = s.op("mul", "Mul", [("x", rho), s.read(slot)], like=grad)
        new = s.op("mul", "Mul", [("x", 1 - rho), value], like=grad)
        s.assign("AssignVariableOp", slot, s.op("add", "AddV2", [
            kept, s.op("mul", "Mul", [new, value])]))

    def rms(slot):   # sqrt(slot + epsilon)
        return s.op("Sqrt", "Sqrt", [s.op("add", "AddV2", [s.read(slot),
                                                            ("y", opt.epsilon)])])

    moving(acc_grad, grad)
    scaled = s.op("mul", "Mul", [s.op("Neg", "Neg", [rms(acc_delta)]), grad], like=grad)
    delta = s.op("truediv", "RealDiv", [scaled, rms(acc_grad)])
    moving(acc_delta, delta)
    s.assign("AssignAddVariableOp", variable,
             s.op("mul", "Mul", [s.read(s.lr), delta], like=grad))


def _clip_by_value(s, variable, bound):
    """``tf.clip_by_value(variable, -bound, bound)``, the variable read inside its scope."""
    name = s.b.unique(s.scope + "clip_by_value")
    value = s.b.read(f"{name}/ReadVariableOp", variable, named=True)
    shape = [(variable.dtype, tuple(variable.shape))]
    low = s.b.add(f"{name}/Minimum", "Minimum", [
        value, s.b.const(f"{name}/Minimum/y", float(bound))], shape).outputs[0]
    return s.b.add(name, "Maximum", [low, s.b.const(f"{name}/y", -float(bound))],
                   shape).outputs[0]


def ftrl(s, opt, grad, variable, index):
    accum, linear = opt._accumulators[index], opt._linears[index]
    power = -opt.learning_rate_power
    twice_lr = s.op("mul", "Mul", [("x", 2.0), s.read(s.lr)])
    l2 = s.op("add", "AddV2", [("x", opt.l2_regularization_strength), s.op(
        "truediv", "RealDiv", [("x", opt.beta), twice_lr], like=twice_lr)], like=twice_lr)
    shrunk = s.op("mul", "Mul", [("x", 2 * opt.l2_shrinkage_regularization_strength),
                                 s.read(variable)], like=grad)
    grad_to_use = s.op("add", "AddV2", [grad, shrunk])
    squared = s.op("Pow", "Pow", [grad, ("y", 2)])
    new_accum = s.op("add", "AddV2", [s.read(accum), squared])
    grown = s.op("sub", "Sub", [s.op("Pow", "Pow", [new_accum, ("y", power)]),
                                s.op("Pow", "Pow", [accum, ("y", power)], like=grad)])
    step = s.op("mul", "Mul", [s.op("truediv", "RealDiv", [grown, s.lr]), variable])
    s.assign("AssignAddVariableOp", linear, s.op("sub", "Sub", [grad_to_use, step]))
    quadratic = s.op("add", "AddV2", [
        s.op("truediv", "RealDiv", [s.op("Pow", "Pow", [new_accum, ("y", power)]), s.lr]),
        s.op("mul", "Mul", [("x", 2), l2], like=l2)], like=grad)
    clipped = _clip_by_value(s, linear, opt.l1_regularization_strength)
    shrink = s.op("sub", "Sub", [clipped, linear])
    s.assign("AssignVariableOp", variable, s.op("truediv", "RealDiv", [shrink, quadratic]))
    s.assign("AssignVariableOp", accum, new_accum)


def _cond(s, opt, counter, u_t):
    """Nadam's ``tf.cond(counter == iterations + 2, cached, new)`` (see the glossary)."""
    later = s.op("add", "AddV2", [s.read(opt.iterations), ("y", 2)])
    same = s.op("Equal", "Equal", [later, ("y", counter)], dtype=dtypes.bool_)
    name = s.b.unique(s.scope + "cond")
    key = s.b.resource_key(opt._u_product)
    product = s.b.resources.get(key)
    if product is None:
        product = s.b.resources[key] = s.b.add(f"{name}/input_0", "Placeholder").outputs[0]
    out = [(u_t.dtype, tuple(u_t.shape.as_list()))]
    chosen = s.b.add(name, "If", [same, product, u_t], out).outputs[0]
    return s.b.add(f"{name}/Identity", "Identity", [chosen], out).outputs[0]


def nadam(s, opt, grad, variable, index, counter):
    m, v = opt._momentums[index], opt._velocities[index]
    step, after = _step(s, opt, 1), _step(s, opt, 2)
    decay, beta_1, beta_2 = (s.cast_x(x) for x in (0.96, opt.beta_1, opt.beta_2))

    def schedule(t):   # beta_1 * (1.0 - 0.5 * 0.96**t)
        half = s.op("mul", "Mul", [("x", 0.5), s.op("Pow", "Pow", [decay, t])])
        return s.op("mul", "Mul", [beta_1, s.op("sub", "Sub", [("x", 1.0), half])])

    def one_minus(x):
        return s.op("sub", "Sub", [("x", 1.0), x], like=x)

    u_t, u_t_1 = schedule(step), schedule(after)
    product = _cond(s, opt, counter, u_t)
    product_1 = s.op("mul", "Mul", [product, u_t_1])
    beta_2_power = s.op("Pow", "Pow", [beta_2, step])
    moved = s.op("mul", "Mul", [s.op("sub", "Sub", [grad, m]), one_minus(beta_1)])
    s.assign("AssignAddVariableOp", m, moved)
    moved = s.op("mul", "Mul", [s.op("sub", "Sub", [s.op("Square", "Square", [grad]), v]),
                                one_minus(beta_2)])
    s.assign("AssignAddVariableOp", v, moved)
    first = s.op("truediv", "RealDiv", [s.op("mul", "Mul", [u_t_1, m], like=grad),
                                        one_minus(product_1)])
    second = s.op("truediv", "RealDiv", [s.op("mul", "Mul", [one_minus(u_t), grad]),
                                         one_minus(product)], like=grad)
    m_hat = s.op("add", "AddV2", [first, second])
    denominator = one_minus(beta_2_power)   # (the operand first, then v's read)
    v_hat = s.op("truediv", "RealDiv", [s.read(v), denominator])
    top = s.op("mul", "Mul", [m_hat, s.lr])
    bottom = s.op("add", "AddV2", [s.op("Sqrt", "Sqrt", [v_hat]), ("y", opt.epsilon)])
    s.assign("AssignSubVariableOp", variable, s.op("truediv", "RealDiv", [top, bottom]))
