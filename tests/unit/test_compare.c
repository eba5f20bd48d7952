/* Unit tests of compare's statistics and scaling arithmetic on known inputs. */
#include "compare/stats.h"
#include "tap.h"
#include <math.h>

#define near(a, b) (fabs((a) - (b)) < 1e-9)

int main(void)
{
    double odd[] = {5, 1, 3};
    struct sample_stats s;
    stats_of(odd, 3, &s);
    ok(s.n == 3 && near(s.median, 3) && near(s.min, 1) && near(s.max, 5) && near(s.mean, 3),
       "median, min, max, mean of 5 1 3");
    ok(near(s.cv, 2.0 / 3.0), "cv of 5 1 3: sample sd 2 / mean 3 (got %g)", s.cv);
    double even[] = {4, 1, 2, 3};
    stats_of(even, 4, &s);
    ok(near(s.median, 2.5), "median of an even count is the mean of the middle two");
    double one[] = {7};
    stats_of(one, 1, &s);
    ok(near(s.median, 7) && s.cv == 0, "one sample: cv 0");
    stats_of(NULL, 0, &s);
    ok(s.n == 0 && s.median == 0, "no samples: zeros");
    double same[] = {2, 2, 2, 2};
    stats_of(same, 4, &s);
    ok(s.cv == 0, "equal samples: cv 0");

    /* Strong scaling: 100 s on 1 rank, 30 s on 4: S = 3.33, E = 83%. */
    ok(near(speedup(100, 30, false), 100.0 / 30), "speedup 100/30");
    ok(near(efficiency(100, 1, 30, 4, false), 100.0 / 30 / 4), "efficiency on 4 ranks from 1");
    /* A bandwidth: 1000 MB/s on 1 rank, 3000 on 4: speedup 3, efficiency 0.75. */
    ok(near(speedup(1000, 3000, true), 3), "higher is better: speedup 3000/1000 = 3");
    ok(near(efficiency(1000, 1, 3000, 4, true), 0.75), "higher is better: efficiency 0.75");
    ok(near(speedup(2000, 1000, true), 0.5), "higher is better: half the bandwidth is 0.5");
    ok(speedup(0, 5, true) == 0, "higher is better, no base value: 0, not inf");
    /* From 2 ranks (n0 = 2): 50 s -> 20 s on 8: S = 2.5, E = 2.5 * 2 / 8 = 62.5%. */
    ok(near(efficiency(50, 2, 20, 8, false), 0.625), "efficiency from n0 = 2");
    ok(near(efficiency(10, 1, 10, 1, false), 1), "the base point has efficiency 1");
    ok(speedup(10, 0, false) == 0 && efficiency(10, 1, 10, 0, false) == 0, "no time or no ranks: 0, not inf");
    return done_testing();
}
