// Fq2 products for 6-limb (384-bit) and 4-limb (256-bit) moduli on x86-64 with BMI2 (MULX) and ADX
// (ADCX/ADOX): the whole Karatsuba product in one routine, so the three double-width products,
// their combination and the two Montgomery reductions run without the compiler's spills between
// separate asm statements (field/fp2.hpp holds the C++ of the same method; the tests compare them).
//
// 6 limbs. Layout: an Fq2 element is 12 little-endian words (c0 then c1, each a Montgomery representation);
// a wide Fq2 element is 24 words (c0 then c1, each 12 words). The modulus p must be below 2^382
// (p < R/4 with R = 2^384, as Fp2 asserts): then every sum below stays in its words.
//
//   void zk_fp2_mul_wide_384(uint64_t out[24], const uint64_t a[12], const uint64_t b[12],
//                            const uint64_t p[6]);
//     out.c0 = a0 b0 - a1 b1 mod p R (p added to the high half on a borrow): below p R.
//     out.c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 = a0 b1 + a1 b0: below 2 p^2 < p R.
//     a and b's coefficients below p.
//   void zk_fp2_mul_384(uint64_t out[12], const uint64_t a[12], const uint64_t b[12],
//                       const uint64_t p[6], uint64_t n0);
//     out = a b, each coefficient reduced (below p); n0 = -p^-1 mod 2^64.
//   void zk_fp2_sqr_wide_384(uint64_t out[24], const uint64_t a[12], const uint64_t p[6]);
//     out.c0 = (a0 + a1)(a0 - a1 mod p), out.c1 = (a0 + a0) a1: below 2 p^2 each; a's coefficients
//     below p.
//   void zk_redc_384(uint64_t out[6], const uint64_t t[12], const uint64_t p[6], uint64_t n0);
//     out = t / R mod p, below p, for t < p R.
//
// The _256 twins (zk_fp2_mul_wide_256, zk_fp2_mul_256, zk_fp2_sqr_wide_256) have the same contracts
// for 4-limb moduli below 2^254 (R = 2^256): 8 words per Fq2, 16 per wide one, and
//   void zk_fp2_sqr_256(uint64_t out[8], const uint64_t a[8], const uint64_t p[4], uint64_t n0);
//     out = a^2, each coefficient reduced (for 6 limbs, two fused Montgomery products are faster).
//
// Callers check cpu::kHasMulxAdx first.

#if defined(__x86_64__) && defined(__ELF__)

        .text

// One row of the schoolbook product: the window w0..w5 (six words) plus a[0..5] * b[i], i = off/8,
// into w0..w5 and wn; w0 is then final and stored at out[i]. Two carry chains: ADOX adds the low
// halves to w_j, ADCX the high halves to w_j+1.
// In: rsi = a, rbp = b, rdi = out. Clobbers rax, rdx, r15, flags.
.macro ZK_MUL_ROW off, w0, w1, w2, w3, w4, w5, wn
        movq    \off(%rbp), %rdx
        xorl    %eax, %eax
        mulxq   0(%rsi), %rax, %r15
        adoxq   %rax, \w0
        adcxq   %r15, \w1
        mulxq   8(%rsi), %rax, %r15
        adoxq   %rax, \w1
        adcxq   %r15, \w2
        mulxq   16(%rsi), %rax, %r15
        adoxq   %rax, \w2
        adcxq   %r15, \w3
        mulxq   24(%rsi), %rax, %r15
        adoxq   %rax, \w3
        adcxq   %r15, \w4
        mulxq   32(%rsi), %rax, %r15
        adoxq   %rax, \w4
        adcxq   %r15, \w5
        mulxq   40(%rsi), %rax, \wn
        adoxq   %rax, \w5
        movl    $0, %eax
        adcxq   %rax, \wn
        adoxq   %rax, \wn
        movq    \w0, \off(%rdi)
.endm

// out[0..11] = a[0..5] * b[0..5]. In: rsi = a, rbp = b, rdi = out.
// Clobbers rax, rdx, r8-r15, flags; keeps rbx, rcx, rsi, rdi, rbp.
        .p2align 5
        .type   zk_mul_384_local, @function
zk_mul_384_local:
        movq    0(%rbp), %rdx
        xorl    %eax, %eax
        mulxq   0(%rsi), %r8, %r9
        mulxq   8(%rsi), %rax, %r10
        adcxq   %rax, %r9
        mulxq   16(%rsi), %rax, %r11
        adcxq   %rax, %r10
        mulxq   24(%rsi), %rax, %r12
        adcxq   %rax, %r11
        mulxq   32(%rsi), %rax, %r13
        adcxq   %rax, %r12
        mulxq   40(%rsi), %rax, %r14
        adcxq   %rax, %r13
        movl    $0, %eax
        adcxq   %rax, %r14
        movq    %r8, 0(%rdi)
        ZK_MUL_ROW 8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r8
        ZK_MUL_ROW 16, %r10, %r11, %r12, %r13, %r14, %r8,  %r9
        ZK_MUL_ROW 24, %r11, %r12, %r13, %r14, %r8,  %r9,  %r10
        ZK_MUL_ROW 32, %r12, %r13, %r14, %r8,  %r9,  %r10, %r11
        ZK_MUL_ROW 40, %r13, %r14, %r8,  %r9,  %r10, %r11, %r12
        movq    %r14, 48(%rdi)
        movq    %r8, 56(%rdi)
        movq    %r9, 64(%rdi)
        movq    %r10, 72(%rdi)
        movq    %r11, 80(%rdi)
        movq    %r12, 88(%rdi)
        ret
        .size   zk_mul_384_local, .-zk_mul_384_local

// One Montgomery word step on r8..r13: (t + m p) / 2^64 with m = t0 n0 mod 2^64, in place.
// In: rcx = p, rbx = n0. Clobbers rax, rdx, r14, flags.
.macro ZK_REDC_STEP
        movq    %r8, %rdx
        imulq   %rbx, %rdx
        xorl    %eax, %eax
        mulxq   0(%rcx), %rax, %r14
        adcxq   %r8, %rax
        movq    %r14, %r8
        adcxq   %r9, %r8
        mulxq   8(%rcx), %rax, %r9
        adoxq   %rax, %r8
        adcxq   %r10, %r9
        mulxq   16(%rcx), %rax, %r10
        adoxq   %rax, %r9
        adcxq   %r11, %r10
        mulxq   24(%rcx), %rax, %r11
        adoxq   %rax, %r10
        adcxq   %r12, %r11
        mulxq   32(%rcx), %rax, %r12
        adoxq   %rax, %r11
        adcxq   %r13, %r12
        mulxq   40(%rcx), %rax, %r13
        adoxq   %rax, %r12
        movl    $0, %eax
        adcxq   %rax, %r13
        adoxq   %rax, %r13
.endm

// out[0..5] = t / R mod p, below p, for t < p R: six word steps on the low half give u <= p,
// then u + t_hi < 2p is reduced once. In: rsi = t, rdi = out, rcx = p, rbx = n0.
// Clobbers rax, rdx, rsi, rbp, r8-r15, flags; keeps rbx, rcx, rdi.
        .p2align 5
        .type   zk_redc_384_local, @function
zk_redc_384_local:
        movq    0(%rsi), %r8
        movq    8(%rsi), %r9
        movq    16(%rsi), %r10
        movq    24(%rsi), %r11
        movq    32(%rsi), %r12
        movq    40(%rsi), %r13
        ZK_REDC_STEP
        ZK_REDC_STEP
        ZK_REDC_STEP
        ZK_REDC_STEP
        ZK_REDC_STEP
        ZK_REDC_STEP
        addq    48(%rsi), %r8
        adcq    56(%rsi), %r9
        adcq    64(%rsi), %r10
        adcq    72(%rsi), %r11
        adcq    80(%rsi), %r12
        adcq    88(%rsi), %r13
        // u + t_hi - p into rax, rdx, r14, r15, rsi, rbp; kept where it did not borrow.
        movq    %r8, %rax
        subq    0(%rcx), %rax
        movq    %r9, %rdx
        sbbq    8(%rcx), %rdx
        movq    %r10, %r14
        sbbq    16(%rcx), %r14
        movq    %r11, %r15
        sbbq    24(%rcx), %r15
        movq    %r12, %rsi
        sbbq    32(%rcx), %rsi
        movq    %r13, %rbp
        sbbq    40(%rcx), %rbp
        cmovncq %rax, %r8
        cmovncq %rdx, %r9
        cmovncq %r14, %r10
        cmovncq %r15, %r11
        cmovncq %rsi, %r12
        cmovncq %rbp, %r13
        movq    %r8, 0(%rdi)
        movq    %r9, 8(%rdi)
        movq    %r10, 16(%rdi)
        movq    %r11, 24(%rdi)
        movq    %r12, 32(%rdi)
        movq    %r13, 40(%rdi)
        ret
        .size   zk_redc_384_local, .-zk_redc_384_local

// The wide Karatsuba product (zk_fp2_mul_wide_384's contract) into out = rdi (24 words).
// In: rsi = a, rdx = b, rcx = p; a frame of 192 bytes at rsp: a1 b1 at 0, a0 + a1 at 96,
// b0 + b1 at 144. Clobbers every register but rcx and rsp; leaves rbx = out.
.macro ZK_FP2_MUL_WIDE_BODY
        movq    %rdi, %rbx
        movq    %rdx, %rbp
        // a0 + a1 and b0 + b1: below 2p < 2^383, no carry out.
        movq    0(%rsi), %r8
        addq    48(%rsi), %r8
        movq    8(%rsi), %r9
        adcq    56(%rsi), %r9
        movq    16(%rsi), %r10
        adcq    64(%rsi), %r10
        movq    24(%rsi), %r11
        adcq    72(%rsi), %r11
        movq    32(%rsi), %r12
        adcq    80(%rsi), %r12
        movq    40(%rsi), %r13
        adcq    88(%rsi), %r13
        movq    %r8, 96(%rsp)
        movq    %r9, 104(%rsp)
        movq    %r10, 112(%rsp)
        movq    %r11, 120(%rsp)
        movq    %r12, 128(%rsp)
        movq    %r13, 136(%rsp)
        movq    0(%rbp), %r8
        addq    48(%rbp), %r8
        movq    8(%rbp), %r9
        adcq    56(%rbp), %r9
        movq    16(%rbp), %r10
        adcq    64(%rbp), %r10
        movq    24(%rbp), %r11
        adcq    72(%rbp), %r11
        movq    32(%rbp), %r12
        adcq    80(%rbp), %r12
        movq    40(%rbp), %r13
        adcq    88(%rbp), %r13
        movq    %r8, 144(%rsp)
        movq    %r9, 152(%rsp)
        movq    %r10, 160(%rsp)
        movq    %r11, 168(%rsp)
        movq    %r12, 176(%rsp)
        movq    %r13, 184(%rsp)
        // t1 = a1 b1 (frame), t0 = a0 b0 (out.c0), t2 = (a0 + a1)(b0 + b1) (out.c1).
        addq    $48, %rsi
        addq    $48, %rbp
        movq    %rsp, %rdi
        call    zk_mul_384_local
        subq    $48, %rsi
        subq    $48, %rbp
        movq    %rbx, %rdi
        call    zk_mul_384_local
        leaq    96(%rsp), %rsi
        leaq    144(%rsp), %rbp
        leaq    96(%rbx), %rdi
        call    zk_mul_384_local
        // out.c1 = t2 - t0 - t1 (non-negative: a0 b1 + a1 b0).
        movq    96(%rbx), %r8
        subq    0(%rbx), %r8
        movq    104(%rbx), %r9
        sbbq    8(%rbx), %r9
        movq    112(%rbx), %r10
        sbbq    16(%rbx), %r10
        movq    120(%rbx), %r11
        sbbq    24(%rbx), %r11
        movq    128(%rbx), %r12
        sbbq    32(%rbx), %r12
        movq    136(%rbx), %r13
        sbbq    40(%rbx), %r13
        movq    144(%rbx), %r14
        sbbq    48(%rbx), %r14
        movq    152(%rbx), %r15
        sbbq    56(%rbx), %r15
        movq    160(%rbx), %rax
        sbbq    64(%rbx), %rax
        movq    168(%rbx), %rdx
        sbbq    72(%rbx), %rdx
        movq    176(%rbx), %rsi
        sbbq    80(%rbx), %rsi
        movq    184(%rbx), %rbp
        sbbq    88(%rbx), %rbp
        subq    0(%rsp), %r8
        sbbq    8(%rsp), %r9
        sbbq    16(%rsp), %r10
        sbbq    24(%rsp), %r11
        sbbq    32(%rsp), %r12
        sbbq    40(%rsp), %r13
        sbbq    48(%rsp), %r14
        sbbq    56(%rsp), %r15
        sbbq    64(%rsp), %rax
        sbbq    72(%rsp), %rdx
        sbbq    80(%rsp), %rsi
        sbbq    88(%rsp), %rbp
        movq    %r8, 96(%rbx)
        movq    %r9, 104(%rbx)
        movq    %r10, 112(%rbx)
        movq    %r11, 120(%rbx)
        movq    %r12, 128(%rbx)
        movq    %r13, 136(%rbx)
        movq    %r14, 144(%rbx)
        movq    %r15, 152(%rbx)
        movq    %rax, 160(%rbx)
        movq    %rdx, 168(%rbx)
        movq    %rsi, 176(%rbx)
        movq    %rbp, 184(%rbx)
        // out.c0 = t0 - t1, plus p R on a borrow.
        movq    0(%rbx), %r8
        subq    0(%rsp), %r8
        movq    8(%rbx), %r9
        sbbq    8(%rsp), %r9
        movq    16(%rbx), %r10
        sbbq    16(%rsp), %r10
        movq    24(%rbx), %r11
        sbbq    24(%rsp), %r11
        movq    32(%rbx), %r12
        sbbq    32(%rsp), %r12
        movq    40(%rbx), %r13
        sbbq    40(%rsp), %r13
        movq    48(%rbx), %r14
        sbbq    48(%rsp), %r14
        movq    56(%rbx), %r15
        sbbq    56(%rsp), %r15
        movq    64(%rbx), %rax
        sbbq    64(%rsp), %rax
        movq    72(%rbx), %rdx
        sbbq    72(%rsp), %rdx
        movq    80(%rbx), %rsi
        sbbq    80(%rsp), %rsi
        movq    88(%rbx), %rbp
        sbbq    88(%rsp), %rbp
        movq    %r8, 0(%rbx)
        movq    %r9, 8(%rbx)
        movq    %r10, 16(%rbx)
        movq    %r11, 24(%rbx)
        movq    %r12, 32(%rbx)
        movq    %r13, 40(%rbx)
        sbbq    %rdi, %rdi
        movq    0(%rcx), %r8
        andq    %rdi, %r8
        movq    8(%rcx), %r9
        andq    %rdi, %r9
        movq    16(%rcx), %r10
        andq    %rdi, %r10
        movq    24(%rcx), %r11
        andq    %rdi, %r11
        movq    32(%rcx), %r12
        andq    %rdi, %r12
        movq    40(%rcx), %r13
        andq    %rdi, %r13
        addq    %r8, %r14
        adcq    %r9, %r15
        adcq    %r10, %rax
        adcq    %r11, %rdx
        adcq    %r12, %rsi
        adcq    %r13, %rbp
        movq    %r14, 48(%rbx)
        movq    %r15, 56(%rbx)
        movq    %rax, 64(%rbx)
        movq    %rdx, 72(%rbx)
        movq    %rsi, 80(%rbx)
        movq    %rbp, 88(%rbx)
.endm

.macro ZK_FP2_SQR_WIDE_BODY
        movq    %rdi, %rbx
        movq    %rsi, 144(%rsp)
        // s = a0 + a1 at 0 and e = a0 + a0 at 96 (below 2p, no carry out).
        movq    0(%rsi), %r8
        addq    48(%rsi), %r8
        movq    8(%rsi), %r9
        adcq    56(%rsi), %r9
        movq    16(%rsi), %r10
        adcq    64(%rsi), %r10
        movq    24(%rsi), %r11
        adcq    72(%rsi), %r11
        movq    32(%rsi), %r12
        adcq    80(%rsi), %r12
        movq    40(%rsi), %r13
        adcq    88(%rsi), %r13
        movq    %r8, 0(%rsp)
        movq    %r9, 8(%rsp)
        movq    %r10, 16(%rsp)
        movq    %r11, 24(%rsp)
        movq    %r12, 32(%rsp)
        movq    %r13, 40(%rsp)
        movq    0(%rsi), %r8
        addq    %r8, %r8
        movq    8(%rsi), %r9
        adcq    %r9, %r9
        movq    16(%rsi), %r10
        adcq    %r10, %r10
        movq    24(%rsi), %r11
        adcq    %r11, %r11
        movq    32(%rsi), %r12
        adcq    %r12, %r12
        movq    40(%rsi), %r13
        adcq    %r13, %r13
        movq    %r8, 96(%rsp)
        movq    %r9, 104(%rsp)
        movq    %r10, 112(%rsp)
        movq    %r11, 120(%rsp)
        movq    %r12, 128(%rsp)
        movq    %r13, 136(%rsp)
        // d = a0 - a1 mod p at 48 (p added on a borrow).
        movq    0(%rsi), %r8
        subq    48(%rsi), %r8
        movq    8(%rsi), %r9
        sbbq    56(%rsi), %r9
        movq    16(%rsi), %r10
        sbbq    64(%rsi), %r10
        movq    24(%rsi), %r11
        sbbq    72(%rsi), %r11
        movq    32(%rsi), %r12
        sbbq    80(%rsi), %r12
        movq    40(%rsi), %r13
        sbbq    88(%rsi), %r13
        sbbq    %rax, %rax
        movq    0(%rcx), %rdx
        andq    %rax, %rdx
        movq    8(%rcx), %r14
        andq    %rax, %r14
        movq    16(%rcx), %r15
        andq    %rax, %r15
        movq    24(%rcx), %rbp
        andq    %rax, %rbp
        movq    32(%rcx), %rdi
        andq    %rax, %rdi
        movq    40(%rcx), %rsi
        andq    %rax, %rsi
        addq    %rdx, %r8
        adcq    %r14, %r9
        adcq    %r15, %r10
        adcq    %rbp, %r11
        adcq    %rdi, %r12
        adcq    %rsi, %r13
        movq    %r8, 48(%rsp)
        movq    %r9, 56(%rsp)
        movq    %r10, 64(%rsp)
        movq    %r11, 72(%rsp)
        movq    %r12, 80(%rsp)
        movq    %r13, 88(%rsp)
        // out.c0 = s d, out.c1 = e a1.
        movq    %rsp, %rsi
        leaq    48(%rsp), %rbp
        movq    %rbx, %rdi
        call    zk_mul_384_local
        leaq    96(%rsp), %rsi
        movq    144(%rsp), %rbp
        addq    $48, %rbp
        leaq    96(%rbx), %rdi
        call    zk_mul_384_local
.endm

.macro ZK_PUSH_CALLEE_SAVED
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
.endm

.macro ZK_POP_CALLEE_SAVED
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
.endm

        .globl  zk_fp2_mul_wide_384
        .p2align 5
        .type   zk_fp2_mul_wide_384, @function
zk_fp2_mul_wide_384:
        ZK_PUSH_CALLEE_SAVED
        subq    $200, %rsp
        ZK_FP2_MUL_WIDE_BODY
        addq    $200, %rsp
        ZK_POP_CALLEE_SAVED
        ret
        .size   zk_fp2_mul_wide_384, .-zk_fp2_mul_wide_384

        .globl  zk_fp2_mul_384
        .p2align 5
        .type   zk_fp2_mul_384, @function
zk_fp2_mul_384:
        ZK_PUSH_CALLEE_SAVED
        // Frame: the body's 192 bytes, the wide product at 192 (192 bytes), out at 384, n0 at 392.
        subq    $408, %rsp
        movq    %rdi, 384(%rsp)
        movq    %r8, 392(%rsp)
        leaq    192(%rsp), %rdi
        ZK_FP2_MUL_WIDE_BODY
        movq    392(%rsp), %rbx
        movq    384(%rsp), %rdi
        leaq    192(%rsp), %rsi
        call    zk_redc_384_local
        leaq    288(%rsp), %rsi
        addq    $48, %rdi
        call    zk_redc_384_local
        addq    $408, %rsp
        ZK_POP_CALLEE_SAVED
        ret
        .size   zk_fp2_mul_384, .-zk_fp2_mul_384

        .globl  zk_fp2_sqr_wide_384
        .p2align 5
        .type   zk_fp2_sqr_wide_384, @function
zk_fp2_sqr_wide_384:
        ZK_PUSH_CALLEE_SAVED
        subq    $152, %rsp
        movq    %rdx, %rcx
        ZK_FP2_SQR_WIDE_BODY
        addq    $152, %rsp
        ZK_POP_CALLEE_SAVED
        ret
        .size   zk_fp2_sqr_wide_384, .-zk_fp2_sqr_wide_384

        .globl  zk_redc_384
        .p2align 5
        .type   zk_redc_384, @function
zk_redc_384:
        ZK_PUSH_CALLEE_SAVED
        movq    %rcx, %rbx
        movq    %rdx, %rcx
        call    zk_redc_384_local
        ZK_POP_CALLEE_SAVED
        ret
        .size   zk_redc_384, .-zk_redc_384

// ---- 4-limb (256-bit) moduli: the same routines with 4-word rows (BN254's Fq). ----

.macro ZK_MUL_ROW4 off, w0, w1, w2, w3, wn
        movq    \off(%rbp), %rdx
        xorl    %eax, %eax
        mulxq   0(%rsi), %rax, %r15
        adoxq   %rax, \w0
        adcxq   %r15, \w1
        mulxq   8(%rsi), %rax, %r15
        adoxq   %rax, \w1
        adcxq   %r15, \w2
        mulxq   16(%rsi), %rax, %r15
        adoxq   %rax, \w2
        adcxq   %r15, \w3
        mulxq   24(%rsi), %rax, \wn
        adoxq   %rax, \w3
        movl    $0, %eax
        adcxq   %rax, \wn
        adoxq   %rax, \wn
        movq    \w0, \off(%rdi)
.endm

// out[0..7] = a[0..3] * b[0..3]. In: rsi = a, rbp = b, rdi = out.
// Clobbers rax, rdx, r8-r12, r15, flags; keeps rbx, rcx, rsi, rdi, rbp, r13, r14.
        .p2align 5
        .type   zk_mul_256_local, @function
zk_mul_256_local:
        movq    0(%rbp), %rdx
        xorl    %eax, %eax
        mulxq   0(%rsi), %r8, %r9
        mulxq   8(%rsi), %rax, %r10
        adcxq   %rax, %r9
        mulxq   16(%rsi), %rax, %r11
        adcxq   %rax, %r10
        mulxq   24(%rsi), %rax, %r12
        adcxq   %rax, %r11
        movl    $0, %eax
        adcxq   %rax, %r12
        movq    %r8, 0(%rdi)
        ZK_MUL_ROW4 8,  %r9,  %r10, %r11, %r12, %r8
        ZK_MUL_ROW4 16, %r10, %r11, %r12, %r8,  %r9
        ZK_MUL_ROW4 24, %r11, %r12, %r8,  %r9,  %r10
        movq    %r12, 32(%rdi)
        movq    %r8, 40(%rdi)
        movq    %r9, 48(%rdi)
        movq    %r10, 56(%rdi)
        ret
        .size   zk_mul_256_local, .-zk_mul_256_local

.macro ZK_REDC_STEP4
        movq    %r8, %rdx
        imulq   %rbx, %rdx
        xorl    %eax, %eax
        mulxq   0(%rcx), %rax, %r14
        adcxq   %r8, %rax
        movq    %r14, %r8
        adcxq   %r9, %r8
        mulxq   8(%rcx), %rax, %r9
        adoxq   %rax, %r8
        adcxq   %r10, %r9
        mulxq   16(%rcx), %rax, %r10
        adoxq   %rax, %r9
        adcxq   %r11, %r10
        mulxq   24(%rcx), %rax, %r11
        adoxq   %rax, %r10
        movl    $0, %eax
        adcxq   %rax, %r11
        adoxq   %rax, %r11
.endm

// out[0..3] = t / R mod p, below p, for t < p R (R = 2^256). In: rsi = t, rdi = out, rcx = p,
// rbx = n0. Clobbers rax, rdx, r8-r11, r14, r15, flags; keeps the rest.
        .p2align 5
        .type   zk_redc_256_local, @function
zk_redc_256_local:
        movq    0(%rsi), %r8
        movq    8(%rsi), %r9
        movq    16(%rsi), %r10
        movq    24(%rsi), %r11
        ZK_REDC_STEP4
        ZK_REDC_STEP4
        ZK_REDC_STEP4
        ZK_REDC_STEP4
        addq    32(%rsi), %r8
        adcq    40(%rsi), %r9
        adcq    48(%rsi), %r10
        adcq    56(%rsi), %r11
        movq    %r8, %rax
        subq    0(%rcx), %rax
        movq    %r9, %rdx
        sbbq    8(%rcx), %rdx
        movq    %r10, %r14
        sbbq    16(%rcx), %r14
        movq    %r11, %r15
        sbbq    24(%rcx), %r15
        cmovncq %rax, %r8
        cmovncq %rdx, %r9
        cmovncq %r14, %r10
        cmovncq %r15, %r11
        movq    %r8, 0(%rdi)
        movq    %r9, 8(%rdi)
        movq    %r10, 16(%rdi)
        movq    %r11, 24(%rdi)
        ret
        .size   zk_redc_256_local, .-zk_redc_256_local

// zk_fp2_mul_wide_256's contract into out = rdi (16 words). In: rsi = a, rdx = b, rcx = p; a frame
// of 128 bytes at rsp: a1 b1 at 0, a0 + a1 at 64, b0 + b1 at 96. Clobbers every register but rcx
// and rsp; leaves rbx = out.
.macro ZK_FP2_MUL_WIDE_BODY4
        movq    %rdi, %rbx
        movq    %rdx, %rbp
        movq    0(%rsi), %r8
        addq    32(%rsi), %r8
        movq    8(%rsi), %r9
        adcq    40(%rsi), %r9
        movq    16(%rsi), %r10
        adcq    48(%rsi), %r10
        movq    24(%rsi), %r11
        adcq    56(%rsi), %r11
        movq    %r8, 64(%rsp)
        movq    %r9, 72(%rsp)
        movq    %r10, 80(%rsp)
        movq    %r11, 88(%rsp)
        movq    0(%rbp), %r8
        addq    32(%rbp), %r8
        movq    8(%rbp), %r9
        adcq    40(%rbp), %r9
        movq    16(%rbp), %r10
        adcq    48(%rbp), %r10
        movq    24(%rbp), %r11
        adcq    56(%rbp), %r11
        movq    %r8, 96(%rsp)
        movq    %r9, 104(%rsp)
        movq    %r10, 112(%rsp)
        movq    %r11, 120(%rsp)
        addq    $32, %rsi
        addq    $32, %rbp
        movq    %rsp, %rdi
        call    zk_mul_256_local
        subq    $32, %rsi
        subq    $32, %rbp
        movq    %rbx, %rdi
        call    zk_mul_256_local
        leaq    64(%rsp), %rsi
        leaq    96(%rsp), %rbp
        leaq    64(%rbx), %rdi
        call    zk_mul_256_local
        // out.c1 = t2 - t0 - t1.
        movq    64(%rbx), %r8
        subq    0(%rbx), %r8
        movq    72(%rbx), %r9
        sbbq    8(%rbx), %r9
        movq    80(%rbx), %r10
        sbbq    16(%rbx), %r10
        movq    88(%rbx), %r11
        sbbq    24(%rbx), %r11
        movq    96(%rbx), %r12
        sbbq    32(%rbx), %r12
        movq    104(%rbx), %r13
        sbbq    40(%rbx), %r13
        movq    112(%rbx), %r14
        sbbq    48(%rbx), %r14
        movq    120(%rbx), %r15
        sbbq    56(%rbx), %r15
        subq    0(%rsp), %r8
        sbbq    8(%rsp), %r9
        sbbq    16(%rsp), %r10
        sbbq    24(%rsp), %r11
        sbbq    32(%rsp), %r12
        sbbq    40(%rsp), %r13
        sbbq    48(%rsp), %r14
        sbbq    56(%rsp), %r15
        movq    %r8, 64(%rbx)
        movq    %r9, 72(%rbx)
        movq    %r10, 80(%rbx)
        movq    %r11, 88(%rbx)
        movq    %r12, 96(%rbx)
        movq    %r13, 104(%rbx)
        movq    %r14, 112(%rbx)
        movq    %r15, 120(%rbx)
        // out.c0 = t0 - t1, plus p R on a borrow.
        movq    0(%rbx), %r8
        subq    0(%rsp), %r8
        movq    8(%rbx), %r9
        sbbq    8(%rsp), %r9
        movq    16(%rbx), %r10
        sbbq    16(%rsp), %r10
        movq    24(%rbx), %r11
        sbbq    24(%rsp), %r11
        movq    32(%rbx), %r12
        sbbq    32(%rsp), %r12
        movq    40(%rbx), %r13
        sbbq    40(%rsp), %r13
        movq    48(%rbx), %r14
        sbbq    48(%rsp), %r14
        movq    56(%rbx), %r15
        sbbq    56(%rsp), %r15
        movq    %r8, 0(%rbx)
        movq    %r9, 8(%rbx)
        movq    %r10, 16(%rbx)
        movq    %r11, 24(%rbx)
        sbbq    %rax, %rax
        movq    0(%rcx), %r8
        andq    %rax, %r8
        movq    8(%rcx), %r9
        andq    %rax, %r9
        movq    16(%rcx), %r10
        andq    %rax, %r10
        movq    24(%rcx), %r11
        andq    %rax, %r11
        addq    %r8, %r12
        adcq    %r9, %r13
        adcq    %r10, %r14
        adcq    %r11, %r15
        movq    %r12, 32(%rbx)
        movq    %r13, 40(%rbx)
        movq    %r14, 48(%rbx)
        movq    %r15, 56(%rbx)
.endm

// zk_fp2_sqr_wide_256's contract into out = rdi (16 words). In: rsi = a, rcx = p; a frame of
// 96 bytes at rsp: s = a0 + a1 at 0, d = a0 - a1 mod p at 32, e = a0 + a0 at 64. Leaves rbx = out.
.macro ZK_FP2_SQR_WIDE_BODY4
        movq    %rdi, %rbx
        movq    %rsi, %r13
        movq    0(%rsi), %r8
        addq    32(%rsi), %r8
        movq    8(%rsi), %r9
        adcq    40(%rsi), %r9
        movq    16(%rsi), %r10
        adcq    48(%rsi), %r10
        movq    24(%rsi), %r11
        adcq    56(%rsi), %r11
        movq    %r8, 0(%rsp)
        movq    %r9, 8(%rsp)
        movq    %r10, 16(%rsp)
        movq    %r11, 24(%rsp)
        movq    0(%rsi), %r8
        addq    %r8, %r8
        movq    8(%rsi), %r9
        adcq    %r9, %r9
        movq    16(%rsi), %r10
        adcq    %r10, %r10
        movq    24(%rsi), %r11
        adcq    %r11, %r11
        movq    %r8, 64(%rsp)
        movq    %r9, 72(%rsp)
        movq    %r10, 80(%rsp)
        movq    %r11, 88(%rsp)
        movq    0(%rsi), %r8
        subq    32(%rsi), %r8
        movq    8(%rsi), %r9
        sbbq    40(%rsi), %r9
        movq    16(%rsi), %r10
        sbbq    48(%rsi), %r10
        movq    24(%rsi), %r11
        sbbq    56(%rsi), %r11
        sbbq    %rax, %rax
        movq    0(%rcx), %rdx
        andq    %rax, %rdx
        movq    8(%rcx), %r14
        andq    %rax, %r14
        movq    16(%rcx), %r15
        andq    %rax, %r15
        movq    24(%rcx), %rbp
        andq    %rax, %rbp
        addq    %rdx, %r8
        adcq    %r14, %r9
        adcq    %r15, %r10
        adcq    %rbp, %r11
        movq    %r8, 32(%rsp)
        movq    %r9, 40(%rsp)
        movq    %r10, 48(%rsp)
        movq    %r11, 56(%rsp)
        movq    %rsp, %rsi
        leaq    32(%rsp), %rbp
        movq    %rbx, %rdi
        call    zk_mul_256_local
        leaq    64(%rsp), %rsi
        leaq    32(%r13), %rbp
        leaq    64(%rbx), %rdi
        call    zk_mul_256_local
.endm

        .globl  zk_fp2_mul_wide_256
        .p2align 5
        .type   zk_fp2_mul_wide_256, @function
zk_fp2_mul_wide_256:
        ZK_PUSH_CALLEE_SAVED
        subq    $128, %rsp
        ZK_FP2_MUL_WIDE_BODY4
        addq    $128, %rsp
        ZK_POP_CALLEE_SAVED
        ret
        .size   zk_fp2_mul_wide_256, .-zk_fp2_mul_wide_256

        .globl  zk_fp2_mul_256
        .p2align 5
        .type   zk_fp2_mul_256, @function
zk_fp2_mul_256:
        ZK_PUSH_CALLEE_SAVED
        // Frame: the body's 128 bytes, the wide product at 128 (128 bytes), out at 256, n0 at 264.
        subq    $272, %rsp
        movq    %rdi, 256(%rsp)
        movq    %r8, 264(%rsp)
        leaq    128(%rsp), %rdi
        ZK_FP2_MUL_WIDE_BODY4
        movq    264(%rsp), %rbx
        movq    256(%rsp), %rdi
        leaq    128(%rsp), %rsi
        call    zk_redc_256_local
        leaq    192(%rsp), %rsi
        addq    $32, %rdi
        call    zk_redc_256_local
        addq    $272, %rsp
        ZK_POP_CALLEE_SAVED
        ret
        .size   zk_fp2_mul_256, .-zk_fp2_mul_256

        .globl  zk_fp2_sqr_wide_256
        .p2align 5
        .type   zk_fp2_sqr_wide_256, @function
zk_fp2_sqr_wide_256:
        ZK_PUSH_CALLEE_SAVED
        subq    $96, %rsp
        movq    %rdx, %rcx
        ZK_FP2_SQR_WIDE_BODY4
        addq    $96, %rsp
        ZK_POP_CALLEE_SAVED
        ret
        .size   zk_fp2_sqr_wide_256, .-zk_fp2_sqr_wide_256

        .globl  zk_fp2_sqr_256
        .p2align 5
        .type   zk_fp2_sqr_256, @function
zk_fp2_sqr_256:
        ZK_PUSH_CALLEE_SAVED
        // Frame: the body's 96 bytes, the wide square at 96 (128 bytes), out at 224, n0 at 232.
        subq    $240, %rsp
        movq    %rdi, 224(%rsp)
        movq    %rcx, 232(%rsp)
        leaq    96(%rsp), %rdi
        movq    %rdx, %rcx
        ZK_FP2_SQR_WIDE_BODY4
        movq    232(%rsp), %rbx
        movq    224(%rsp), %rdi
        leaq    96(%rsp), %rsi
        call    zk_redc_256_local
        leaq    160(%rsp), %rsi
        addq    $32, %rdi
        call    zk_redc_256_local
        addq    $240, %rsp
        ZK_POP_CALLEE_SAVED
        ret
        .size   zk_fp2_sqr_256, .-zk_fp2_sqr_256

#endif

        .section .note.GNU-stack, "", @progbits
