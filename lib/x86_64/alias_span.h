/* SPDX-License-Identifier: MIT */
/*
 * The span over which a load is matched against older stores before their
 * whole addresses are known: the address bits below a page. A copy whose
 * destination lies just past its source modulo this span has its loads held
 * back behind its own stores (loops.S, x86_rep_movsb_aliased in x86_copy.h).
 * A plain number, for C and assembly alike.
 */
#ifndef COPYPERF_X86_ALIAS_SPAN_H
#define COPYPERF_X86_ALIAS_SPAN_H

#define X86_ALIAS_SPAN 4096

#endif
