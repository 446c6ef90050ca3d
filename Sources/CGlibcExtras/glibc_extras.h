// glibc functions that Swift's Glibc module does not import (malloc.h is not part of it; pipe2 needs
// _GNU_SOURCE), reached through these accessors. Used by the host's child processes and the conformance
// suite.
#include <malloc.h>
#include <stddef.h>

// Bytes handed out by malloc and not yet freed: in-use chunks of every arena plus mmap'ed blocks. The
// balanced-models check watches it to find models that destroy never frees.
static inline size_t floor_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

// pipe2(2), declared here because <unistd.h> hides it without _GNU_SOURCE. Used with O_CLOEXEC so that a
// child spawned by another thread never inherits a pipe meant for a different child.
extern int pipe2(int pipefd[2], int flags);
static inline int floor_pipe_cloexec(int fds[2]) { return pipe2(fds, 02000000 /* O_CLOEXEC on Linux */); }

// pidfd_open(2) (Linux 5.3 and later), through syscall(2), which Swift cannot call (it is variadic): a
// descriptor that becomes readable when the process exits, so a supervisor can wait for a child and watch
// a clock at once. -1 with errno set when the kernel does not have it.
#include <sys/syscall.h>
extern long syscall(long number, ...);
static inline int floor_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

// The file system type (statfs f_type) of an open file: the page root refuses /proc and /sys files, which
// claim to be regular files. -1 when fstatfs fails.
#include <sys/vfs.h>
static inline long floor_file_system_type(int fd) {
    struct statfs info;
    return fstatfs(fd, &info) == 0 ? (long)info.f_type : -1;
}

// memfd_create(2): an anonymous file that lives in memory only, so a crash record shared with a child
// leaves nothing in the file system however either process ends. Close-on-exec; the parent hands it to
// its child by dup2. -1 with errno set on failure.
extern int memfd_create(const char *name, unsigned int flags);
static inline int floor_memfd_cloexec(const char *name) { return memfd_create(name, 1U /* MFD_CLOEXEC */); }

// prctl(PR_SET_PDEATHSIG, SIGKILL) (prctl is variadic, which Swift cannot call): the kernel kills this
// process when the thread that started it ends, so a child never outlives a parent that was killed
// (ChildProcess starts every child from one thread that lives as long as the process: SpawningThread).
#include <sys/prctl.h>
#include <signal.h>
static inline int floor_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); }

// The terminal's size in columns and lines (ioctl TIOCGWINSZ; ioctl is variadic, which Swift cannot
// call). 0 on success, -1 when `fd` is not a terminal.
#include <sys/ioctl.h>
static inline int floor_terminal_size(int fd, unsigned short *columns, unsigned short *lines) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *columns = size.ws_col;
    *lines = size.ws_row;
    return 0;
}

// posix_spawn_file_actions_addclosefrom_np (glibc 2.34 and later; <spawn.h> declares it only with
// _GNU_SOURCE): the child closes every descriptor from `from` up, whatever its close-on-exec flag. A child
// then has only what it is handed, never a listening or client socket of its parent (a server's worker).
#include <spawn.h>
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
static inline int floor_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

// close_range(2) (Linux 5.9 and later), through syscall(2): closes every descriptor from `first` to `last`
// (both included), whatever its close-on-exec flag. A forked child keeps only what it was handed this way.
// -1 with errno set (ENOSYS on an older kernel) when it could not.
static inline int floor_close_range(unsigned int first, unsigned int last) {
#ifdef SYS_close_range
    return (int)syscall(SYS_close_range, first, last, 0);
#else
    (void)first;
    (void)last;
    return -1;
#endif
}

// Names the calling thread (prctl PR_SET_NAME: what /proc/<pid>/task/<tid>/comm and `top -H` show; the
// kernel keeps the first 15 bytes). prctl is variadic, and pthread_setname_np needs _GNU_SOURCE. HostThread.
#include <sys/prctl.h>
extern int prctl(int option, ...);
static inline void floor_name_this_thread(const char *name) { (void)prctl(PR_SET_NAME, name, 0, 0, 0); }

// strptime(3), which <time.h> declares only with _XOPEN_SOURCE: HTTP dates (FloorSession's HTTPDate).
#include <time.h>
extern char *strptime(const char *s, const char *format, struct tm *tm);
