// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * copyperf: the kernel's copy routines timed the way the 2008 MPC8313
 * measurement did, for the copyperf command, through /dev/copyperf (root only).
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "copyperf.h"
#include "copyperf_ioctl.h"
#include "cache_flush.h"
#include "measure.h"
#include "routines.h"

/* The same layout for 32- and 64-bit callers: compat_ptr_ioctl is all compat needs. */
static_assert(sizeof(struct copyperf_version) == 24);
static_assert(sizeof(struct copyperf_routine_info) == 144);
static_assert(sizeof(struct copyperf_measure) == 104);

static long cp_ioctl_version(void __user *argp)
{
	struct copyperf_version v = {
		.abi = COPYPERF_ABI_VERSION,
		.n_routines = cp_n_routines,
		.flags = CP_CAN_FLUSH ? COPYPERF_CAN_FLUSH : 0,
		.page_size = PAGE_SIZE,
		.max_buffer = CP_MAX_BUFFER,
	};

	return copy_to_user(argp, &v, sizeof(v)) ? -EFAULT : 0;
}

static long cp_ioctl_routine(void __user *argp)
{
	struct copyperf_routine_info info;
	const struct cp_routine *r;
	u32 index;

	if (get_user(index, (u32 __user *)argp))
		return -EFAULT;
	if (index >= cp_n_routines)
		return -EINVAL;
	r = &cp_routines[index];
	memset(&info, 0, sizeof(info));
	info.index = index;
	info.direction = r->direction;
	info.flags = r->flags;
	strscpy(info.name, r->name, sizeof(info.name));
	strscpy(info.description, r->description, sizeof(info.description));
	return copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0;
}

static long cp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case COPYPERF_IOC_VERSION:
		return cp_ioctl_version(argp);
	case COPYPERF_IOC_ROUTINE:
		return cp_ioctl_routine(argp);
	case COPYPERF_IOC_MEASURE:
		return cp_ioctl_measure(argp);
	}
	return -ENOTTY;
}

/* It pins memory, flushes caches and holds a CPU: not for everyone, whatever the node's mode. */
static int cp_open(struct inode *inode, struct file *file)
{
	return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

static const struct file_operations cp_fops = {
	.owner = THIS_MODULE,
	.open = cp_open,
	.unlocked_ioctl = cp_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice cp_device = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "copyperf",
	.fops = &cp_fops,
	.mode = 0600,
};

module_misc_device(cp_device);

MODULE_DESCRIPTION("copyperf: time the kernel's memory-copy routines");
MODULE_LICENSE("Dual MIT/GPL");
MODULE_VERSION(COPYPERF_VERSION);
