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
}
