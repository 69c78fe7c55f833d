// radtap: -head "campaign(total)/(state)"
/* External effects see the values the original sees (issue 50): the strings a command, a
   file name and the lines written are built from are computed in the derivatives too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NC 4

/* Prints one line of the log. */
void report(const char *msg) {
    printf("log: %s\n", msg);
}

/* Makes the output directory with a command assembled piece by piece, and writes a summary
   of the initial state there through the shell; then scales the state. */
void setup(double *state, double scale) {
    char outdir[64] = "campaign_calib";
    char cmd[160];
    int i, npos = 0;
    for (i = 0; i < NC; i++)
        if (state[i] > 1.0)
            npos++;
    strcpy(cmd, "mkdir");
    strcat(cmd, " -p ");
    strcat(cmd, outdir);
    if (system(cmd) != 0)
        printf("cannot run: %s\n", cmd);
    snprintf(cmd, sizeof cmd, "echo calib %d %d > %s/setup.txt", NC, npos, outdir);
    if (system(cmd) != 0)
        printf("cannot run: %s\n", cmd);
    for (i = 0; i < NC; i++)
        state[i] = scale * state[i];
}

/* One explicit step of a small nonlinear diffusion. */
void advance(double *state, double dt) {
    double old[NC];
    int i;
    for (i = 0; i < NC; i++)
        old[i] = state[i];
    for (i = 1; i < NC - 1; i++)
        state[i] = old[i] + dt * (old[i - 1] - 2 * old[i] + old[i + 1]) * old[i];
}

void campaign(int nsteps, double *state, double *total) {
    char buf[96];
    int k, nlines = 0;
    double dt = 0.1;
    setup(state, 1.5);
    for (k = 0; k < nsteps; k++) {
        advance(state, dt);
        nlines++;
    }
    *total = 0;
    for (k = 0; k < NC; k++)
        *total += state[k] * state[k];
    snprintf(buf, sizeof buf, "campaign calib_done: %d steps, total %12.6f", nlines, *total);
    report(buf);
}
