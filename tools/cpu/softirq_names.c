/* The softirq vectors' names (see softirq_names.h). */
#include "softirq_names.h"

static const char *const names[SOFTIRQ_NR_VECS] = {
	"hi", "timer", "net_tx", "net_rx", "block", "irq_poll", "tasklet", "sched", "hrtimer", "rcu",
};

const char *softirq_name(unsigned vec)
{
	return vec < SOFTIRQ_NR_VECS ? names[vec] : 0;
}
