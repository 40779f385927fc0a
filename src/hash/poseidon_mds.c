/* Poseidon's linear layer: neptune's Cauchy MDS matrix, exact inversion, and the
 * factorisation of the partial rounds' MDS multiplications into sparse matrices
 * (neptune's factor_to_sparse_matrixes, after the Poseidon paper's appendix B).
 *
 * Convention, as in neptune: the state is a row vector and a round computes state * M
 * (apply_matrix). The Cauchy matrix is symmetric, but the derived matrices are not, so the
 * transposes matter. Matrices are t x t, row-major, at most CUZK_POSEIDON_MAX_WIDTH wide. */
#include <string.h>

#include "hash_internal.h"

#define MAXT CUZK_POSEIDON_MAX_WIDTH

void cuzk_mat_mul(cuzk_fr *out, const cuzk_fr *a, const cuzk_fr *b, unsigned t)
{
    for (unsigned i = 0; i < t; i++) cuzk_fr_row_times_matrix(&out[i * t], &a[i * t], b, t);
}

bool cuzk_mat_is_identity(const cuzk_fr *m, unsigned t)
{
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++)
            if (!(i == j ? cuzk_fr_is_one(&m[i * t + j]) : cuzk_fr_is_zero(&m[i * t + j]))) return false;
    return true;
}

/* Gauss-Jordan elimination on [m | I]. The inverse is unique, so any exact method gives
 * neptune's result. */
bool cuzk_mat_invert(cuzk_fr *out, const cuzk_fr *m, unsigned t)
{
    cuzk_fr a[MAXT * MAXT];
    memcpy(a, m, sizeof(cuzk_fr) * t * t);
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) out[i * t + j] = i == j ? CUZK_FR_ONE : CUZK_FR_ZERO;

    for (unsigned col = 0; col < t; col++) {
        unsigned piv = col;
        while (piv < t && cuzk_fr_is_zero(&a[piv * t + col])) piv++;
        if (piv == t) return false;
        if (piv != col)
            for (unsigned j = 0; j < t; j++) {
                cuzk_fr x = a[col * t + j], y = out[col * t + j];
                a[col * t + j] = a[piv * t + j];
                out[col * t + j] = out[piv * t + j];
                a[piv * t + j] = x;
                out[piv * t + j] = y;
            }
        cuzk_fr inv;
        cuzk_fr_inv(&inv, &a[col * t + col]);
        for (unsigned j = 0; j < t; j++) {
            cuzk_fr_mul(&a[col * t + j], &a[col * t + j], &inv);
            cuzk_fr_mul(&out[col * t + j], &out[col * t + j], &inv);
        }
        for (unsigned i = 0; i < t; i++) {
            if (i == col || cuzk_fr_is_zero(&a[i * t + col])) continue;
            cuzk_fr f = a[i * t + col], tmp;
            for (unsigned j = 0; j < t; j++) {
                cuzk_fr_mul(&tmp, &f, &a[col * t + j]);
                cuzk_fr_sub(&a[i * t + j], &a[i * t + j], &tmp);
                cuzk_fr_mul(&tmp, &f, &out[col * t + j]);
                cuzk_fr_sub(&out[i * t + j], &out[i * t + j], &tmp);
            }
        }
    }
    return true;
}

void cuzk_poseidon_cauchy_mds(cuzk_fr *m, unsigned t)
{
    /* x_i = i, y_j = t + j, entry 1 / (x_i + y_j): symmetric since it depends on i + j. */
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            cuzk_fr s;
            cuzk_fr_from_u64(&s, (uint64_t)i + t + j);
            cuzk_fr_inv(&m[i * t + j], &s);
        }
}

/* One factorisation step of neptune's derive_mds_matrices: m = m' * m'', with
 *   m'  = [1 0; 0 m_hat]                  (m_hat = m without row 0 and column 0)
 *   m'' = [m00 v; w_hat I],  v = m[0][1..], w_hat = w * m_hat^-1, w = m[1..][0]. */
static bool factor_step(cuzk_fr *m_prime, cuzk_fr *w_hat_full, cuzk_fr *v, const cuzk_fr *m, unsigned t)
{
    unsigned h = t - 1;
    cuzk_fr m_hat[MAXT * MAXT], m_hat_inv[MAXT * MAXT], w[MAXT];
    for (unsigned i = 0; i < h; i++)
        for (unsigned j = 0; j < h; j++) m_hat[i * h + j] = m[(i + 1) * t + j + 1];
    if (!cuzk_mat_invert(m_hat_inv, m_hat, h)) return false;

    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++)
            m_prime[i * t + j] = i == 0 || j == 0 ? (i == j ? CUZK_FR_ONE : CUZK_FR_ZERO) : m[i * t + j];

    for (unsigned i = 0; i < h; i++) {
        w[i] = m[(i + 1) * t];
        v[i] = m[i + 1];
    }
    w_hat_full[0] = m[0]; /* neptune's SparseMatrix.w_hat is the whole first column of m'' */
    cuzk_fr_row_times_matrix(&w_hat_full[1], w, m_hat_inv, h);
    return true;
}

bool cuzk_poseidon_factor_sparse(cuzk_fr *pre_sparse, cuzk_fr *w_hat, cuzk_fr *v_rest, const cuzk_fr *m, unsigned t,
                                 unsigned n)
{
    /* curr starts as M; each step factors curr = m' * m'' and continues with M * m'. The m''
     * are produced last round first, so they are stored from the back. */
    cuzk_fr curr[MAXT * MAXT], m_prime[MAXT * MAXT];
    memcpy(curr, m, sizeof(cuzk_fr) * t * t);
    for (unsigned k = 0; k < n; k++) {
        unsigned slot = n - 1 - k;
        if (!factor_step(m_prime, &w_hat[slot * t], &v_rest[slot * (t - 1)], curr, t)) return false;
        cuzk_mat_mul(curr, m, m_prime, t);
    }
    memcpy(pre_sparse, curr, sizeof(cuzk_fr) * t * t);
    return true;
}
