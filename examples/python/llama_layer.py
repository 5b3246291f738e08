"""RMSNorm + Linear as two Mirage kernels inside a small Llama-style
decoder layer (the norm and QKV projection before attention, the norm and
gate/up projection before the MLP; attention and the rest in PyTorch),
checked against the same layer in plain PyTorch and timed.

    PYTHONPATH=python python3 examples/python/llama_layer.py [--time-limit S]
"""

import mirage as mi
from common import check_and_time, gpu_or_stop, options

TOKENS, HIDDEN, HEADS, INTERMEDIATE = 8, 1024, 8, 2816
HEAD_DIM = HIDDEN // HEADS


def norm_linear(name, outputs):
    graph = mi.new_kernel_graph(name)
    X = graph.new_input(dims=(TOKENS, HIDDEN), dtype=mi.float16)
    W = graph.new_input(dims=(HIDDEN, outputs), dtype=mi.float16)
    graph.mark_output(graph.matmul(graph.rms_norm(X, (HIDDEN,)), W))
    return graph.superoptimize(time_limit=args.time_limit)


args = options(__doc__)
norm_qkv = norm_linear("norm_qkv", 3 * HIDDEN)
norm_gate_up = norm_linear("norm_gate_up", 2 * INTERMEDIATE)

torch = gpu_or_stop({"norm_qkv": norm_qkv, "norm_gate_up": norm_gate_up},
                    args)
F = torch.nn.functional


def weight(*shape):
    return torch.randn(*shape, device="cuda", dtype=torch.float16) * 0.02


x = torch.randn(TOKENS, HIDDEN, device="cuda", dtype=torch.float16)
w_qkv, w_o = weight(HIDDEN, 3 * HIDDEN), weight(HIDDEN, HIDDEN)
w_gate_up, w_down = weight(HIDDEN, 2 * INTERMEDIATE), weight(INTERMEDIATE,
                                                             HIDDEN)


def rms_norm(t):
    return (t.float() * torch.rsqrt(t.float().pow(2).mean(-1, keepdim=True))
            ).to(t.dtype)


def layer(qkv_projection, gate_up_projection):
    q, k, v = qkv_projection(x).view(TOKENS, 3, HEADS, HEAD_DIM).unbind(1)
    attention = F.scaled_dot_product_attention(
        q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1),
        is_causal=True).transpose(0, 1).reshape(TOKENS, HIDDEN)
    h = x + attention @ w_o
    gate, up = gate_up_projection(h).chunk(2, dim=-1)
    return h + (F.silu(gate) * up) @ w_down


check_and_time(
    torch, "llama layer",
    lambda: layer(lambda t: norm_qkv(t, w_qkv),
                  lambda t: norm_gate_up(t, w_gate_up)),
    lambda: layer(lambda t: rms_norm(t) @ w_qkv,
                  lambda t: rms_norm(t) @ w_gate_up))
