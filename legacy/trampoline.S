/* One trampoline per forwarded BLAS symbol (forward_list.h): a jump through
 * the symbol's slot, which holds the host BLAS's entry point once forward.c
 * has resolved it.  A jump leaves every argument where the caller put it
 * (registers, stack, Fortran's hidden string lengths after the last argument,
 * a complex function's return registers), so forwarding needs no signatures
 * (the list's argument classes serve only forward.c's check of 64-bit calls).
 * An empty slot goes to lg_fwd_slow, which saves the argument registers,
 * asks lg_fwd_resolve(slot, saved integer registers, caller's stack
 * arguments) for the entry point (resolving every slot on the first call;
 * checking the integers of a 64-bit call that a 32-bit routine serves),
 * restores them and jumps there. */
#include "forward_list.h"

#if defined(__x86_64__)

#define LG_TRAMP(sym)                                                                           \
    .text; .globl sym; .type sym, @function; .p2align 4;                                        \
    sym: endbr64; movq lg_slot_##sym(%rip), %r11; testq %r11, %r11; jz 1f; jmp *%r11;           \
    1: leaq lg_slot_##sym(%rip), %r11; jmp lg_fwd_slow; .size sym, .-sym;                       \
    .bss; .p2align 3; .globl lg_slot_##sym; .hidden lg_slot_##sym;                              \
    .type lg_slot_##sym, @object; .size lg_slot_##sym, 8; lg_slot_##sym: .zero 8;

    .text
    .p2align 4
    .type lg_fwd_slow, @function
lg_fwd_slow:
    /* the caller's stack is as at its call: 8 mod 16 here, 0 after the push */
    pushq %rbp
    movq %rsp, %rbp
    subq $192, %rsp
    movq %rdi, 0(%rsp)
    movq %rsi, 8(%rsp)
    movq %rdx, 16(%rsp)
    movq %rcx, 24(%rsp)
    movq %r8, 32(%rsp)
    movq %r9, 40(%rsp)
    movq %rax, 48(%rsp)
    movaps %xmm0, 64(%rsp)
    movaps %xmm1, 80(%rsp)
    movaps %xmm2, 96(%rsp)
    movaps %xmm3, 112(%rsp)
    movaps %xmm4, 128(%rsp)
    movaps %xmm5, 144(%rsp)
    movaps %xmm6, 160(%rsp)
    movaps %xmm7, 176(%rsp)
    movq %r11, %rdi
    movq %rsp, %rsi
    leaq 16(%rbp), %rdx
    call lg_fwd_resolve
    movq %rax, %r11
    movq 0(%rsp), %rdi
    movq 8(%rsp), %rsi
    movq 16(%rsp), %rdx
    movq 24(%rsp), %rcx
    movq 32(%rsp), %r8
    movq 40(%rsp), %r9
    movq 48(%rsp), %rax
    movaps 64(%rsp), %xmm0
    movaps 80(%rsp), %xmm1
    movaps 96(%rsp), %xmm2
    movaps 112(%rsp), %xmm3
    movaps 128(%rsp), %xmm4
    movaps 144(%rsp), %xmm5
    movaps 160(%rsp), %xmm6
    movaps 176(%rsp), %xmm7
    movq %rbp, %rsp
    popq %rbp
    jmp *%r11
    .size lg_fwd_slow, .-lg_fwd_slow

#elif defined(__aarch64__)

/* hint 34 is BTI C: a landing pad where branch protection is on, a no-op
 * elsewhere. */
#define LG_TRAMP(sym)                                                                           \
    .text; .globl sym; .type sym, %function; .p2align 4;                                        \
    sym: hint 34; adrp x16, lg_slot_##sym; ldr x17, [x16, :lo12:lg_slot_##sym]; cbz x17, 1f;    \
    br x17; 1: add x16, x16, :lo12:lg_slot_##sym; b lg_fwd_slow; .size sym, .-sym;             \
    .bss; .p2align 3; .globl lg_slot_##sym; .hidden lg_slot_##sym;                              \
    .type lg_slot_##sym, %object; .size lg_slot_##sym, 8; lg_slot_##sym: .zero 8;

    .text
    .p2align 4
    .type lg_fwd_slow, %function
lg_fwd_slow:
    stp x29, x30, [sp, -16]!
    mov x29, sp
    sub sp, sp, 208
    stp x0, x1, [sp, 0]
    stp x2, x3, [sp, 16]
    stp x4, x5, [sp, 32]
    stp x6, x7, [sp, 48]
    str x8, [sp, 64]
    stp q0, q1, [sp, 80]
    stp q2, q3, [sp, 112]
    stp q4, q5, [sp, 144]
    stp q6, q7, [sp, 176]
    mov x0, x16
    mov x1, sp
    add x2, x29, 16
    bl lg_fwd_resolve
    mov x16, x0
    ldp x0, x1, [sp, 0]
    ldp x2, x3, [sp, 16]
    ldp x4, x5, [sp, 32]
    ldp x6, x7, [sp, 48]
    ldr x8, [sp, 64]
    ldp q0, q1, [sp, 80]
    ldp q2, q3, [sp, 112]
    ldp q4, q5, [sp, 144]
    ldp q6, q7, [sp, 176]
    mov sp, x29
    ldp x29, x30, [sp], 16
    br x16
    .size lg_fwd_slow, .-lg_fwd_slow

#else
#error "the legacy BLAS library's trampolines are written for x86-64 and AArch64"
#endif

#define LG_F77_TRAMPS(name, sig) LG_TRAMP(name##_) LG_TRAMP(name##_64_)
#define LG_F77_TRAMP32(name) LG_TRAMP(name##_)
#define LG_CBLAS_TRAMPS(name, sig) LG_TRAMP(name) LG_TRAMP(name##64_)

LG_F77_FORWARDED(LG_F77_TRAMPS)
LG_F77_IAMAX(LG_F77_TRAMP32)
LG_CBLAS_FORWARDED(LG_CBLAS_TRAMPS)

    .section .note.GNU-stack, "", %progbits
