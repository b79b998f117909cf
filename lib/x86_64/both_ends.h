/* SPDX-License-Identifier: MIT */
/*
 * Copies made of unaligned vectors from both ends, every load before any
 * store (so memmove as well), written once for any vector width: the file
 * that includes it defines END_T (the vector type), END_W (its bytes),
 * END_LOAD(p), END_STORE(p, v), END_FN (the functions' attributes) and
 * END_NAME(x) (x with the width's suffix: copy_upto_8vec ...), and may
 * include it again for another width (vec_copy.h: its own vectors, and half
 * ones for AVX-512). No include guard, on purpose.
 */

/* 4W <= n <= 8W: four vectors from each end. */
END_FN void END_NAME(copy_upto_8)(unsigned char *d, const unsigned char *s, size_t n)
{
	END_T a = END_LOAD(s), b = END_LOAD(s + END_W);
	END_T c = END_LOAD(s + 2 * END_W), e = END_LOAD(s + 3 * END_W);
	END_T w = END_LOAD(s + n - 4 * END_W), x = END_LOAD(s + n - 3 * END_W);
	END_T y = END_LOAD(s + n - 2 * END_W), z = END_LOAD(s + n - END_W);

	END_STORE(d, a);
	END_STORE(d + END_W, b);
	END_STORE(d + 2 * END_W, c);
	END_STORE(d + 3 * END_W, e);
	END_STORE(d + n - 4 * END_W, w);
	END_STORE(d + n - 3 * END_W, x);
	END_STORE(d + n - 2 * END_W, y);
	END_STORE(d + n - END_W, z);
}

/*
 * 8W < n <= (8 + k)W, for k = 2, 4 or 8 (a constant where it is called):
 * eight vectors from the start and k from the end. Written out vector by
 * vector: built of four-vector loads and stores (a struct of four), gcc
 * issued the first vector's load eighth, and 900-1024 B ran 1.00-1.09x
 * glibc where this ran 1.12-1.20x (BENCHMARKS.md, twentieth session).
 */
END_FN void END_NAME(copy_past_8)(unsigned char *d, const unsigned char *s, size_t n, int k)
{
	END_T a = END_LOAD(s), b = END_LOAD(s + END_W);
	END_T c = END_LOAD(s + 2 * END_W), e = END_LOAD(s + 3 * END_W);
	END_T f = END_LOAD(s + 4 * END_W), g = END_LOAD(s + 5 * END_W);
	END_T h = END_LOAD(s + 6 * END_W), i = END_LOAD(s + 7 * END_W);
	END_T p = a, q = a, r = a, t = a, w = a, x = a; /* set below where k needs them */
	END_T y, z;

	if (k == 8) {
		p = END_LOAD(s + n - 8 * END_W);
		q = END_LOAD(s + n - 7 * END_W);
		r = END_LOAD(s + n - 6 * END_W);
		t = END_LOAD(s + n - 5 * END_W);
	}
	if (k >= 4) {
		w = END_LOAD(s + n - 4 * END_W);
		x = END_LOAD(s + n - 3 * END_W);
	}
	y = END_LOAD(s + n - 2 * END_W);
	z = END_LOAD(s + n - END_W);
	END_STORE(d, a);
	END_STORE(d + END_W, b);
	END_STORE(d + 2 * END_W, c);
	END_STORE(d + 3 * END_W, e);
	END_STORE(d + 4 * END_W, f);
	END_STORE(d + 5 * END_W, g);
	END_STORE(d + 6 * END_W, h);
	END_STORE(d + 7 * END_W, i);
	if (k == 8) {
		END_STORE(d + n - 8 * END_W, p);
		END_STORE(d + n - 7 * END_W, q);
		END_STORE(d + n - 6 * END_W, r);
		END_STORE(d + n - 5 * END_W, t);
	}
	if (k >= 4) {
		END_STORE(d + n - 4 * END_W, w);
		END_STORE(d + n - 3 * END_W, x);
	}
	END_STORE(d + n - 2 * END_W, y);
	END_STORE(d + n - END_W, z);
}

/*
 * 8W < n <= 16W, with as few vectors from the end as span it: the stores
 * the loop's way saves count (at 64 bytes, eight from the end at 513-768 B
 * ran 0.78-0.88x glibc against four's 0.90-1.03x in a walk, and four at
 * 513-560 B in copyperf's 0.82-0.87x against two's 0.89-0.92x). The source
 * goes through unhoisted() in each arm.
 */
END_FN void END_NAME(copy_8_to_16)(unsigned char *d, const unsigned char *s, size_t n)
{
	if (n <= 10 * END_W)
		END_NAME(copy_past_8)(d, unhoisted(s), n, 2);
	else if (n <= 12 * END_W)
		END_NAME(copy_past_8)(d, unhoisted(s), n, 4);
	else
		END_NAME(copy_past_8)(d, unhoisted(s), n, 8);
}

#undef END_T
#undef END_W
#undef END_LOAD
#undef END_STORE
#undef END_NAME
#undef END_FN
