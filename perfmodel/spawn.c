/* spawn.c - running external programs (gnuplot, likwid-bench) from the
 * perfmodel tool without a shell: an argument vector goes to posix_spawnp,
 * so no file name, platform name or number is ever parsed by a shell. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfmodel_cli.h"

extern char **environ;

int perfmodel_have_program(const char *name) {
  const char *path = getenv("PATH");
  if (path == NULL || strchr(name, '/') != NULL) return 0;
  while (*path) {
    const char *colon = strchr(path, ':');
    const size_t len = colon ? (size_t)(colon - path) : strlen(path);
    char full[4096];
    if (len > 0 && len + strlen(name) + 2 < sizeof full) {
      memcpy(full, path, len);
      full[len] = '/';
      strcpy(full + len + 1, name);
      if (access(full, X_OK) == 0) return 1;
    }
    path += len + (colon != NULL);
  }
  return 0;
}

int perfmodel_run(char *const argv[], char *out, size_t cap) {
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0) return -1;
  int pipefd[2] = {-1, -1};
  int ok = 1;
  if (out != NULL) {
    ok = pipe(pipefd) == 0 &&
         posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO) == 0 &&
         posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDERR_FILENO) == 0 &&
         posix_spawn_file_actions_addclose(&fa, pipefd[0]) == 0 &&
         posix_spawn_file_actions_addclose(&fa, pipefd[1]) == 0;
  }
  pid_t pid;
  if (!ok || posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
    posix_spawn_file_actions_destroy(&fa);
    if (pipefd[0] >= 0) close(pipefd[0]);
    if (pipefd[1] >= 0) close(pipefd[1]);
    return -1;
  }
  posix_spawn_file_actions_destroy(&fa);
  if (out != NULL) {
    close(pipefd[1]);
    size_t n = 0;
    for (;;) {
      char tmp[512];
      const ssize_t r = read(pipefd[0], tmp, sizeof tmp);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      const size_t take = (size_t)r < cap - 1 - n ? (size_t)r : cap - 1 - n;
      memcpy(out + n, tmp, take);
      n += take;
    }
    out[n] = '\0';
    close(pipefd[0]);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
