/* Prints a job's timeline (the JSON the engine returns) as the indented tree the CLI shows:
 * each span with its duration, and under a parent the time its children do not account for. */
#include <jansson.h>
#include <stdio.h>

#include "cli/cli.h"

static void print_level(json_t *spans, FILE *out, long parent, int depth)
{
    size_t n = json_array_size(spans);
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(spans, i);
        if (json_integer_value(json_object_get(s, "parent")) != parent) continue;
        const char *name = json_string_value(json_object_get(s, "name"));
        double sec = json_number_value(json_object_get(s, "seconds"));
        fprintf(out, "  %*s%-*s %10.3f ms\n", depth * 2, "", 40 - depth * 2, name ? name : "?", sec * 1e3);
        print_level(spans, out, (long)i, depth + 1);
        json_t *other = json_object_get(s, "other");
        if (other && json_number_value(other) > 0.0005)
            fprintf(out, "  %*s%-*s %10.3f ms\n", (depth + 1) * 2, "", 40 - (depth + 1) * 2, "(other)",
                    json_number_value(other) * 1e3);
    }
}

void cli_print_timeline_json(const char *title, const char *json, FILE *out)
{
    json_error_t err;
    json_t *spans = json ? json_loads(json, 0, &err) : NULL;
    if (!json_is_array(spans)) {
        json_decref(spans);
        return;
    }
    fprintf(out, "timeline: %s\n", title);
    print_level(spans, out, -1, 0);
    json_decref(spans);
}
