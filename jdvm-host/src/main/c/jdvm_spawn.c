/*
 * jdvm_spawn: starts a process the way posix_spawn does (a vfork-like clone sharing the caller's
 * memory, the caller suspended until the child has exec'd), with what glibc 2.36's posix_spawn
 * cannot do:
 *
 *   - the child is born inside a cgroup (clone3's CLONE_INTO_CGROUP, Linux 5.7), so nothing it
 *     forks can ever be outside it and no move is needed after the start;
 *   - its pidfd comes from the clone itself (CLONE_PIDFD);
 *   - the child is bound to its cpus (sched_setaffinity) before it execs, when it is given some;
 *   - the child's stack is kept per calling thread instead of mapped and unmapped per start (the
 *     unmap's TLB shootdown was a third of posix_spawn's cost in a many-threaded JVM).
 *
 * Loaded through the JDK's foreign-function API by org.jdvm.host.os.NativeSpawn; the
 * Java side falls back to posix_spawn where this library or clone3 is missing.
 *
 * The child shares the parent's memory until its exec: it calls only raw system calls, no
 * function of the C library that could take a lock or touch shared state, and it resets every
 * signal to its default before unblocking signals, so no handler of the parent can run in it.
 */
#if !defined(__x86_64__) || !defined(__linux__)
#error "jdvm_spawn is written for Linux on x86-64; elsewhere jdvm uses posix_spawn"
#endif

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

#define CHILD_STACK (64 * 1024)
#define KERNEL_SIGSET_BYTES 8

/* What the child needs, and where it reports a failure before exec (shared memory). */
struct start {
  const char *path;
  char *const *argv;
  char *const *envp;
  const char *cwd;
  const uint64_t *cpus; /* its cpu mask, or NULL: the caller's */
  long cpus_bytes;
  int in_fd, out_fd, err_fd;
  volatile int err; /* errno of the step that failed in the child, 0 if it exec'd */
};

/* The kernel's struct sigaction for rt_sigaction (x86_64). */
struct ksigaction {
  void *handler;
  unsigned long flags;
  void *restorer;
  uint64_t mask;
};

static long raw(long nr, long a, long b, long c, long d) {
  long ret;
  register long r10 __asm__("r10") = d;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
                   : "rcx", "r11", "memory");
  return ret;
}

static __attribute__((noreturn)) void child_fail(struct start *s, long rc) {
  s->err = (int)-rc;
  for (;;) {
    raw(SYS_exit, 127, 0, 0, 0);
  }
}

/* Runs in the child, on its own stack, until exec. */
static int child(struct start *s) {
  struct ksigaction dfl = {0};
  long rc;
  for (int sig = 1; sig <= 64; sig++) {
    if (sig != SIGKILL && sig != SIGSTOP) {
      raw(SYS_rt_sigaction, sig, (long)&dfl, 0, KERNEL_SIGSET_BYTES);
    }
  }
  if ((rc = raw(SYS_setsid, 0, 0, 0, 0)) < 0) child_fail(s, rc);
  if (s->cpus != NULL &&
      (rc = raw(SYS_sched_setaffinity, 0, s->cpus_bytes, (long)s->cpus, 0)) < 0) {
    child_fail(s, rc);
  }
  if (s->cwd != NULL && (rc = raw(SYS_chdir, (long)s->cwd, 0, 0, 0)) < 0) child_fail(s, rc);
  if (s->in_fd >= 0) {
    if ((rc = raw(SYS_dup2, s->in_fd, 0, 0, 0)) < 0) child_fail(s, rc);
  } else {
    if ((rc = raw(SYS_close, 0, 0, 0, 0)) < 0 && rc != -EBADF) child_fail(s, rc);
    if ((rc = raw(SYS_open, (long)"/dev/null", O_RDONLY, 0, 0)) < 0) child_fail(s, rc);
    if (rc != 0) {
      long fd = rc;
      if ((rc = raw(SYS_dup2, fd, 0, 0, 0)) < 0) child_fail(s, rc);
    }
  }
  if ((rc = raw(SYS_dup2, s->out_fd, 1, 0, 0)) < 0) child_fail(s, rc);
  if ((rc = raw(SYS_dup2, s->err_fd == s->out_fd ? 1 : s->err_fd, 2, 0, 0)) < 0) {
    child_fail(s, rc);
  }
  if ((rc = raw(SYS_close_range, 3, ~0U, 0, 0)) < 0) child_fail(s, rc);
  uint64_t none = 0;
  raw(SYS_rt_sigprocmask, SIG_SETMASK, (long)&none, 0, KERNEL_SIGSET_BYTES);
  rc = raw(SYS_execve, (long)s->path, (long)s->argv, (long)s->envp, 0);
  child_fail(s, rc);
}

/*
 * clone3 with a stack: the child starts on that stack at the instruction after the syscall, so
 * the call into child() is made right there, and the child exits with its result without ever
 * returning into this function's (the parent's) frame.
 */
static long clone3_with(struct clone_args *ca, struct start *s) {
  long ret;
  register struct start *r12 __asm__("r12") = s;
  register void *r13 __asm__("r13") = (void *)child;
  __asm__ volatile(
      "syscall\n\t"
      "test %%rax, %%rax\n\t"
      "jnz 1f\n\t"
      "xor %%ebp, %%ebp\n\t"
      "mov %%r12, %%rdi\n\t"
      "call *%%r13\n\t"
      "mov %%eax, %%edi\n\t"
      "mov $60, %%eax\n\t"
      "syscall\n\t"
      "hlt\n"
      "1:\n\t"
      : "=a"(ret)
      : "0"((long)SYS_clone3), "D"(ca), "S"(sizeof *ca), "r"(r12), "r"(r13)
      : "rcx", "r11", "memory");
  return ret;
}

static __thread void *stack_of_thread;

/*
 * Starts path with argv and envp in a new session, its stdin in_fd (or /dev/null when < 0), its
 * stdout out_fd, its stderr err_fd (which may equal out_fd), every other descriptor closed, every
 * signal at its default and unblocked, in cwd (or the caller's when NULL), inside the cgroup
 * whose directory is cgroup (or the caller's cgroup when NULL), bound to the cpus of the mask of
 * cpu_words 64-bit words at cpus (or as the caller is, when NULL).
 *
 * Returns 0 with *pid and, when pidfd is not NULL, *pidfd set; otherwise an errno value: the
 * child's (ENOENT, EACCES, ... from its exec; EINVAL when no cpu of the mask is usable), the cgroup directory's open, or the clone's (ENOSYS
 * and E2BIG: no clone3 here; EINVAL, EOPNOTSUPP, EBUSY: the cgroup cannot take it).
 */
int jdvm_spawn(const char *path, char *const *argv, char *const *envp, const char *cwd, int in_fd,
               int out_fd, int err_fd, const char *cgroup, int *pid, int *pidfd,
               const uint64_t *cpus, int cpu_words) {
  if (stack_of_thread == NULL) {
    void *st = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (st == MAP_FAILED) return errno;
    stack_of_thread = st;
  }
  int cgroup_fd = -1;
  if (cgroup != NULL) {
    cgroup_fd = open(cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (cgroup_fd < 0) return errno;
  }
  struct start s = {path, argv, envp, cwd, cpus, (long)cpu_words * 8, in_fd, out_fd, err_fd, 0};
  int fd = -1;
  struct clone_args ca;
  memset(&ca, 0, sizeof ca);
  ca.flags = CLONE_VM | CLONE_VFORK | (pidfd != NULL ? CLONE_PIDFD : 0) |
             (cgroup_fd >= 0 ? CLONE_INTO_CGROUP : 0);
  ca.pidfd = (uint64_t)(uintptr_t)&fd;
  ca.exit_signal = SIGCHLD;
  ca.stack = (uint64_t)(uintptr_t)stack_of_thread;
  ca.stack_size = CHILD_STACK;
  ca.cgroup = cgroup_fd >= 0 ? (uint64_t)cgroup_fd : 0;

  /* Nothing may run a handler in the child before it has reset them: block every signal. */
  uint64_t all = ~0ULL, old;
  raw(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, KERNEL_SIGSET_BYTES);
  long child_pid = clone3_with(&ca, &s);
  raw(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, KERNEL_SIGSET_BYTES);
  if (cgroup_fd >= 0) close(cgroup_fd);
  if (child_pid < 0) {
    return (int)-child_pid;
  }
  if (s.err != 0) {
    /* It exited with 127 without exec'ing: reap it, so no zombie is left. */
    siginfo_t info;
    while (waitid(P_PID, (id_t)child_pid, &info, WEXITED) < 0 && errno == EINTR) {
    }
    if (fd >= 0) close(fd);
    return s.err;
  }
  *pid = (int)child_pid;
  if (pidfd != NULL) *pidfd = fd;
  return 0;
}
