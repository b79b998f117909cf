/* SPDX-License-Identifier: MIT */
/* cmocka 1.1's assert_float_equal works in float; results here are doubles. */
#ifndef COPYPERF_ASSERT_NEAR_H
#define COPYPERF_ASSERT_NEAR_H

#include <math.h>

#define assert_near(actual, expected, eps)                                               \
	do {                                                                             \
		double a_ = (actual), e_ = (expected);                                   \
		if (!(fabs(a_ - e_) <= (eps)))                                           \
			fail_msg("%s is %.17g, expected %.17g (within %g)", #actual, a_, \
				 e_, (double)(eps));                                     \
	} while (0)

#endif
