/*
 * floor_abi/log.h: the levels of a plugin's messages to the user (floor_host_t.log in floor_abi/host.h;
 * docs/ABI.md, "Logging"). Part of floor_abi.h, which a plugin includes.
 */
#ifndef FLOOR_ABI_LOG_H
#define FLOOR_ABI_LOG_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum floor_log_level {
    FLOOR_LOG_INFO = 0,
    FLOOR_LOG_WARNING = 1,
    FLOOR_LOG_ERROR = 2,
} floor_log_level_t;

#ifdef __cplusplus
}
#endif

#endif /* FLOOR_ABI_LOG_H */
