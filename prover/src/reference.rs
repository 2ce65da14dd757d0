//! Plain Rust versions of the corpus operators, the oracle the concrete interpreter is tested
//! against (f64 accumulation; comparisons use a tolerance).

/// `out[b] = sum(x[b*chunk .. (b+1)*chunk])` for each of `blocks` outputs.
pub fn block_sum(x: &[f64], chunk: usize, blocks: usize) -> Vec<f64> {
    (0..blocks)
        .map(|b| x[b * chunk..(b + 1) * chunk].iter().sum())
        .collect()
}

/// Row-major `C = A·B` with `A` m×k and `B` k×n.
pub fn matmul(a: &[f64], b: &[f64], m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for p in 0..k {
            let av = a[i * k + p];
            for j in 0..n {
                c[i * n + j] += av * b[p * n + j];
            }
        }
    }
    c
}

/// Layer normalization of each row of `x` (rows×cols): `(x - mean) / sqrt(var + eps) · gamma + beta`,
/// with the biased variance `var = sum (x - mean)^2 / cols`.
pub fn layernorm(
    x: &[f64],
    gamma: &[f64],
    beta: &[f64],
    rows: usize,
    cols: usize,
    eps: f64,
) -> Vec<f64> {
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        let row = &x[r * cols..(r + 1) * cols];
        let mean = row.iter().sum::<f64>() / cols as f64;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / cols as f64;
        let inv = 1.0 / (var + eps).sqrt();
        out.extend((0..cols).map(|c| (row[c] - mean) * inv * gamma[c] + beta[c]));
    }
    out
}

/// RMS normalization of each row of `x` (rows×cols): `x / sqrt(mean(x^2) + eps) · gamma`.
pub fn rmsnorm(x: &[f64], gamma: &[f64], rows: usize, cols: usize, eps: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        let row = &x[r * cols..(r + 1) * cols];
        let ms = row.iter().map(|v| v * v).sum::<f64>() / cols as f64;
        let inv = 1.0 / (ms + eps).sqrt();
        out.extend((0..cols).map(|c| row[c] * inv * gamma[c]));
    }
    out
}

/// Softmax of `s` over the entries where `keep` holds (the others get weight 0).
fn masked_softmax(s: &[f64], keep: impl Fn(usize) -> bool) -> Vec<f64> {
    let m = (0..s.len())
        .filter(|&j| keep(j))
        .map(|j| s[j])
        .fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = (0..s.len())
        .map(|j| if keep(j) { (s[j] - m).exp() } else { 0.0 })
        .collect();
    let l: f64 = e.iter().sum();
    e.iter().map(|v| v / l).collect()
}

/// One head of scaled dot-product attention, `O = softmax(Q K^T · scale) V`, with `Q` tq×d,
/// `K` and `V` tk×d, row-major. `causal`: query `i` sits at position `tk - tq + i` (bottom-right
/// aligned) and sees the keys `j <= tk - tq + i`.
#[allow(clippy::too_many_arguments)]
pub fn attention(
    q: &[f64],
    k: &[f64],
    v: &[f64],
    tq: usize,
    tk: usize,
    d: usize,
    scale: f64,
    causal: bool,
) -> Vec<f64> {
    let mut o = vec![0.0; tq * d];
    for i in 0..tq {
        let s: Vec<f64> = (0..tk)
            .map(|j| scale * (0..d).map(|e| q[i * d + e] * k[j * d + e]).sum::<f64>())
            .collect();
        let pos = tk - tq + i;
        let p = masked_softmax(&s, |j| !causal || j <= pos);
        for e in 0..d {
            o[i * d + e] = (0..tk).map(|j| p[j] * v[j * d + e]).sum();
        }
    }
    o
}

/// Direct 2D convolution (cross-correlation, stride 1, no padding) of `x` (cin×h×w) with the
/// filters `w` (cout×cin×kh×kw): `out[co][y][x] = sum x[ci][y+i][x+j] · w[co][ci][i][j]`,
/// `out` cout×(h-kh+1)×(w-kw+1).
#[allow(clippy::too_many_arguments)]
pub fn conv2d(
    x: &[f64],
    wt: &[f64],
    cin: usize,
    cout: usize,
    h: usize,
    w: usize,
    kh: usize,
    kw: usize,
) -> Vec<f64> {
    let (oh, ow) = (h - kh + 1, w - kw + 1);
    let mut out = vec![0.0; cout * oh * ow];
    for co in 0..cout {
        for y in 0..oh {
            for xx in 0..ow {
                let mut acc = 0.0;
                for ci in 0..cin {
                    for i in 0..kh {
                        for j in 0..kw {
                            acc += x[(ci * h + y + i) * w + xx + j]
                                * wt[((co * cin + ci) * kh + i) * kw + j];
                        }
                    }
                }
                out[(co * oh + y) * ow + xx] = acc;
            }
        }
    }
    out
}

/// Multi-head latent attention, one decode step: the keys and values of head `h` are the
/// up-projections of the latent cache `c` (t×dc), `K_h = c · W_uk[:, h·dh ..]`,
/// `V_h = c · W_uv[:, h·dv ..]` (`W_uk` dc×(heads·dh), `W_uv` dc×(heads·dv)), and
/// `out[h] = softmax(K_h q[h] · scale) V_h` with `q` heads×dh; `out` is heads×dv.
#[allow(clippy::too_many_arguments)]
pub fn mla_decode(
    q: &[f64],
    c: &[f64],
    w_uk: &[f64],
    w_uv: &[f64],
    heads: usize,
    t: usize,
    dc: usize,
    dh: usize,
    dv: usize,
    scale: f64,
) -> Vec<f64> {
    let mut out = vec![0.0; heads * dv];
    for h in 0..heads {
        let key = |j: usize, e: usize| {
            (0..dc)
                .map(|r| c[j * dc + r] * w_uk[r * heads * dh + h * dh + e])
                .sum::<f64>()
        };
        let val = |j: usize, e: usize| {
            (0..dc)
                .map(|r| c[j * dc + r] * w_uv[r * heads * dv + h * dv + e])
                .sum::<f64>()
        };
        let s: Vec<f64> = (0..t)
            .map(|j| scale * (0..dh).map(|e| q[h * dh + e] * key(j, e)).sum::<f64>())
            .collect();
        let p = masked_softmax(&s, |_| true);
        for e in 0..dv {
            out[h * dv + e] = (0..t).map(|j| p[j] * val(j, e)).sum();
        }
    }
    out
}

/// The error function, to about 1e-15 (Maclaurin series for |x| < 3, else 1 - erfc by a
/// continued fraction); std has no erf.
pub fn erf(x: f64) -> f64 {
    let a = x.abs();
    let r = if a < 3.0 {
        // erf(a) = 2/sqrt(pi) sum_n (-1)^n a^(2n+1) / (n! (2n+1))
        let (mut term, mut sum, mut n) = (a, a, 0.0);
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -a * a / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc(a) = exp(-a^2)/sqrt(pi) · 1/(a + 1/2/(a + 1/(a + 3/2/(a + ...))))
        let mut f = a;
        for k in (1..60).rev() {
            f = a + (k as f64 / 2.0) / f;
        }
        1.0 - (-a * a).exp() / std::f64::consts::PI.sqrt() / f
    };
    r.copysign(x)
}

/// GELU: exact `x/2 · (1 + erf(x/sqrt 2))`, or (`tanh`) the approximation
/// `x/2 · (1 + tanh(sqrt(2/pi) · (x + 0.044715 x^3)))`.
pub fn gelu(x: f64, tanh: bool) -> f64 {
    if tanh {
        let u = (2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x);
        0.5 * x * (1.0 + u.tanh())
    } else {
        0.5 * x * (1.0 + erf(x / std::f64::consts::SQRT_2))
    }
}

/// Largest |x - y| / (1 + |y|) over two equally long slices.
pub fn max_rel_error(x: &[f64], y: &[f64]) -> f64 {
    x.iter()
        .zip(y)
        .map(|(a, b)| (a - b).abs() / (1.0 + b.abs()))
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_compute_what_they_say() {
        assert_eq!(block_sum(&[1.0, 2.0, 3.0, 4.0], 2, 2), vec![3.0, 7.0]);
        assert_eq!(
            matmul(&[1.0, 2.0, 3.0, 4.0], &[5.0, 6.0, 7.0, 8.0], 2, 2, 2),
            vec![19.0, 22.0, 43.0, 50.0]
        );
    }

    #[test]
    fn new_references_compute_what_they_say() {
        // layer norm of [1, 3]: mean 2, var 1, so (x - 2) / sqrt(1 + 0) = [-1, 1], then * 2 + 1
        assert_eq!(
            layernorm(&[1.0, 3.0], &[2.0, 2.0], &[1.0, 1.0], 1, 2, 0.0),
            vec![-1.0, 3.0]
        );
        // rms of [3, 4] is sqrt(12.5)
        let r = rmsnorm(&[3.0, 4.0], &[1.0, 1.0], 1, 2, 0.0);
        assert!((r[0] - 3.0 / 12.5f64.sqrt()).abs() < 1e-15);
        // one query, two keys with equal scores: the mean of the values; causal keeps key 0 only
        let (q, k, v) = ([1.0, 0.0], [1.0, 5.0, 1.0, 7.0], [2.0, 4.0, 6.0, 8.0]);
        assert_eq!(attention(&q, &k, &v, 1, 2, 2, 1.0, false), vec![4.0, 6.0]);
        let (q2, k2) = ([1.0, 0.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0]);
        assert_eq!(attention(&q2, &k2, &v, 2, 2, 2, 1.0, true)[..2], [2.0, 4.0]);
        // 1x3x3 image, 2x2 filter picking the top-left pixel
        let img = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0];
        assert_eq!(
            conv2d(&img, &[1.0, 0.0, 0.0, 0.0], 1, 1, 3, 3, 2, 2),
            vec![1.0, 2.0, 4.0, 5.0]
        );
        // MLA with identity up-projections is plain attention over the cache
        let c = [1.0, 5.0, 1.0, 7.0];
        let id = [1.0, 0.0, 0.0, 1.0];
        assert_eq!(
            mla_decode(&q, &c, &id, &id, 1, 2, 2, 2, 2, 1.0),
            attention(&q, &c, &c, 1, 2, 2, 1.0, false)
        );
        assert!((erf(0.5) - 0.520_499_877_813_046_5).abs() < 1e-14);
        assert!((erf(-3.5) + 0.999_999_256_901_627_7).abs() < 1e-14);
        assert!((gelu(1.0, false) - 0.841_344_746_068_543).abs() < 1e-12);
        assert!((gelu(1.0, true) - 0.841_191_990_608_4).abs() < 1e-9);
    }
}
