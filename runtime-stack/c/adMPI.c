/* radtap's MPI layer: see adMPI.h for what each routine does and the calling convention. */
#include "adMPI.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stops every process with a message naming what is not supported. */
static void ad_mpi_refuse(const char *routine, const char *what) {
    fprintf(stderr, "radtap MPI layer: %s: %s\n", routine, what);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* The real kinds the layer computes with: 1 float, 2 double, 3 long double. */
static int ad_kind(MPI_Datatype t, const char *routine) {
    if (t == MPI_DOUBLE || t == MPI_DOUBLE_PRECISION || t == MPI_REAL8)
        return 2;
    if (t == MPI_FLOAT || t == MPI_REAL || t == MPI_REAL4)
        return 1;
    if (t == MPI_LONG_DOUBLE)
        return 3;
    ad_mpi_refuse(routine, "the derivative of data of this MPI datatype is not supported (real "
                           "types only: MPI_DOUBLE, MPI_FLOAT, MPI_LONG_DOUBLE, "
                           "MPI_DOUBLE_PRECISION, MPI_REAL, MPI_REAL4, MPI_REAL8)");
    return 0;
}

static size_t ad_size(int kind) {
    return kind == 1 ? sizeof(float) : kind == 2 ? sizeof(double) : sizeof(long double);
}

static long double ad_get(int kind, const void *p, int i) {
    switch (kind) {
    case 1: return ((const float *)p)[i];
    case 2: return ((const double *)p)[i];
    default: return ((const long double *)p)[i];
    }
}

static void ad_set(int kind, void *p, int i, long double v) {
    switch (kind) {
    case 1: ((float *)p)[i] = (float)v; break;
    case 2: ((double *)p)[i] = (double)v; break;
    default: ((long double *)p)[i] = v; break;
    }
}

/* y[i] += x[i], i < n */
static void ad_add(int kind, int n, const void *x, void *y) {
    for (int i = 0; i < n; i++)
        ad_set(kind, y, i, ad_get(kind, y, i) + ad_get(kind, x, i));
}

static void ad_zero(int kind, int n, void *y) {
    for (int i = 0; i < n; i++)
        ad_set(kind, y, i, 0.0L);
}

static void *ad_alloc(int kind, int n) {
    void *p = calloc(n > 0 ? (size_t)n : 1, ad_size(kind));
    if (!p)
        ad_mpi_refuse("radtap MPI layer", "out of memory");
    return p;
}

static int ad_extremum(MPI_Op op) { return op == MPI_MAX || op == MPI_MIN; }

static void ad_check_op(MPI_Op op, const char *routine) {
    if (op != MPI_SUM && !ad_extremum(op))
        ad_mpi_refuse(routine, "the derivative of a reduction other than MPI_SUM, MPI_MAX and "
                               "MPI_MIN is not supported");
}

static void ad_check_buffers(const void *sendbuf, const char *routine) {
    if (sendbuf == MPI_IN_PLACE)
        ad_mpi_refuse(routine, "MPI_IN_PLACE is not supported: give a separate send buffer");
}

/* For a MAX/MIN reduction of `send` over `comm`: owner[i] is the lowest rank whose value is
   the extremum (the rank the derivative comes from / the adjoint goes to). */
static int *ad_owners(const void *send, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                      int kind) {
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    void *res = ad_alloc(kind, count);
    MPI_Allreduce(send, res, count, type, op, comm);
    int *mine = malloc(sizeof(int) * (count > 0 ? count : 1));
    int *owner = malloc(sizeof(int) * (count > 0 ? count : 1));
    for (int i = 0; i < count; i++)
        mine[i] = ad_get(kind, send, i) == ad_get(kind, res, i) ? rank : size;
    MPI_Allreduce(mine, owner, count, MPI_INT, MPI_MIN, comm);
    free(res);
    free(mine);
    return owner;
}

/* ---- Tangents: the derivatives travel with the data. ---- */

void MPI_Send_d(const void *buf, const void *bufd, int count, MPI_Datatype type, int dest,
                int tag, MPI_Comm comm) {
    ad_kind(type, "MPI_Send");
    MPI_Send(buf, count, type, dest, tag, comm);
    MPI_Send(bufd, count, type, dest, tag, comm);
}

void MPI_Recv_d(void *buf, void *bufd, int count, MPI_Datatype type, int source, int tag,
                MPI_Comm comm, MPI_Status *status) {
    MPI_Status st;
    ad_kind(type, "MPI_Recv");
    MPI_Recv(buf, count, type, source, tag, comm, &st);
    /* The derivative message follows the value from the same sender (messages between two
       processes on one communicator and tag do not overtake each other). */
    MPI_Recv(bufd, count, type, st.MPI_SOURCE, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
    if (status != MPI_STATUS_IGNORE)
        *status = st;
}

void MPI_Sendrecv_d(const void *sendbuf, const void *sendbufd, int sendcount,
                    MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, void *recvbufd,
                    int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Status *status) {
    MPI_Status st;
    ad_kind(sendtype, "MPI_Sendrecv");
    ad_kind(recvtype, "MPI_Sendrecv");
    MPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                 source, recvtag, comm, &st);
    MPI_Sendrecv(sendbufd, sendcount, sendtype, dest, sendtag, recvbufd, recvcount, recvtype,
                 st.MPI_SOURCE, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
    if (status != MPI_STATUS_IGNORE)
        *status = st;
}

/* Non-blocking tangents: the derivative message of each request is a request of its own,
   found again by the value of the user's request when it is waited for. */
#define AD_MAX_REQUESTS 4096
static struct {
    MPI_Request key, deriv;
} ad_requests[AD_MAX_REQUESTS];
static int ad_nrequests;

static void ad_remember(MPI_Request key, MPI_Request deriv, const char *routine) {
    if (ad_nrequests == AD_MAX_REQUESTS)
        ad_mpi_refuse(routine, "more than 4096 requests pending");
    ad_requests[ad_nrequests].key = key;
    ad_requests[ad_nrequests].deriv = deriv;
    ad_nrequests++;
}

/* The derivative request of `key`, forgotten; MPI_REQUEST_NULL if there is none. */
static MPI_Request ad_take(MPI_Request key) {
    for (int i = 0; i < ad_nrequests; i++)
        if (ad_requests[i].key == key) {
            MPI_Request d = ad_requests[i].deriv;
            ad_requests[i] = ad_requests[--ad_nrequests];
            return d;
        }
    return MPI_REQUEST_NULL;
}

void MPI_Isend_d(const void *buf, const void *bufd, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, MPI_Request *request) {
    MPI_Request d;
    ad_kind(type, "MPI_Isend");
    /* The derivative first on both sides (MPI_Irecv_d too): messages match in that order. */
    MPI_Isend(bufd, count, type, dest, tag, comm, &d);
    MPI_Isend(buf, count, type, dest, tag, comm, request);
    ad_remember(*request, d, "MPI_Isend");
}

void MPI_Irecv_d(void *buf, void *bufd, int count, MPI_Datatype type, int source, int tag,
                 MPI_Comm comm, MPI_Request *request) {
    MPI_Request d;
    ad_kind(type, "MPI_Irecv");
    if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
        ad_mpi_refuse("MPI_Irecv", "MPI_ANY_SOURCE / MPI_ANY_TAG: the derivative message could "
                                   "pair with another sender's; name the source and the tag");
    MPI_Irecv(bufd, count, type, source, tag, comm, &d);
    MPI_Irecv(buf, count, type, source, tag, comm, request);
    ad_remember(*request, d, "MPI_Irecv");
}

void MPI_Wait_d(MPI_Request *request, MPI_Status *status) {
    MPI_Request d = ad_take(*request);
    MPI_Wait(request, status);
    MPI_Wait(&d, MPI_STATUS_IGNORE);
}

void MPI_Waitall_d(int count, MPI_Request *requests, MPI_Status *statuses) {
    MPI_Request *d = malloc(sizeof(MPI_Request) * (count > 0 ? count : 1));
    for (int i = 0; i < count; i++)
        d[i] = ad_take(requests[i]);
    MPI_Waitall(count, requests, statuses);
    MPI_Waitall(count, d, MPI_STATUSES_IGNORE);
    free(d);
}

void MPI_Bcast_d(void *buf, void *bufd, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    ad_kind(type, "MPI_Bcast");
    MPI_Bcast(buf, count, type, root, comm);
    MPI_Bcast(bufd, count, type, root, comm);
}

/* recvd = the derivative of the extremum: each element's from the rank that holds it. */
static void ad_extremum_d(const void *send, const void *sendd, int count, MPI_Datatype type,
                          MPI_Op op, MPI_Comm comm, int kind, void *recvd, int root) {
    int rank;
    MPI_Comm_rank(comm, &rank);
    int *owner = ad_owners(send, count, type, op, comm, kind);
    void *t = ad_alloc(kind, count);
    for (int i = 0; i < count; i++)
        ad_set(kind, t, i, owner[i] == rank ? ad_get(kind, sendd, i) : 0.0L);
    if (root < 0)
        MPI_Allreduce(t, recvd, count, type, MPI_SUM, comm);
    else
        MPI_Reduce(t, recvd, count, type, MPI_SUM, root, comm);
    free(t);
    free(owner);
}

void MPI_Reduce_d(const void *sendbuf, const void *sendbufd, void *recvbuf, void *recvbufd,
                  int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
    int kind = ad_kind(type, "MPI_Reduce");
    ad_check_op(op, "MPI_Reduce");
    ad_check_buffers(sendbuf, "MPI_Reduce");
    MPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    if (ad_extremum(op))
        ad_extremum_d(sendbuf, sendbufd, count, type, op, comm, kind, recvbufd, root);
    else
        MPI_Reduce(sendbufd, recvbufd, count, type, MPI_SUM, root, comm);
}

void MPI_Allreduce_d(const void *sendbuf, const void *sendbufd, void *recvbuf, void *recvbufd,
                     int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    int kind = ad_kind(type, "MPI_Allreduce");
    ad_check_op(op, "MPI_Allreduce");
    ad_check_buffers(sendbuf, "MPI_Allreduce");
    if (ad_extremum(op))
        ad_extremum_d(sendbuf, sendbufd, count, type, op, comm, kind, recvbufd, -1);
    else
        MPI_Allreduce(sendbufd, recvbufd, count, type, MPI_SUM, comm);
    MPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

/* Gathers and scatters: the derivatives travel the same way as the values. */

/* The real kind of a gather's or scatter's data: both sides the same kind. */
static int ad_kind2(MPI_Datatype a, MPI_Datatype b, const char *routine) {
    int k = ad_kind(a, routine);
    if (ad_kind(b, routine) != k)
        ad_mpi_refuse(routine, "the send and receive datatypes are different real kinds");
    return k;
}

static int ad_rank(MPI_Comm comm) {
    int r;
    MPI_Comm_rank(comm, &r);
    return r;
}

static int ad_nranks(MPI_Comm comm) {
    int n;
    MPI_Comm_size(comm, &n);
    return n;
}

void MPI_Gather_d(const void *sendbuf, const void *sendbufd, int sendcount,
                  MPI_Datatype sendtype, void *recvbuf, void *recvbufd, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm) {
    ad_kind2(sendtype, recvtype, "MPI_Gather");
    ad_check_buffers(sendbuf, "MPI_Gather");
    MPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    MPI_Gather(sendbufd, sendcount, sendtype, recvbufd, recvcount, recvtype, root, comm);
}

void MPI_Scatter_d(const void *sendbuf, const void *sendbufd, int sendcount,
                   MPI_Datatype sendtype, void *recvbuf, void *recvbufd, int recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm) {
    ad_kind2(sendtype, recvtype, "MPI_Scatter");
    ad_check_buffers(recvbuf, "MPI_Scatter");
    MPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    MPI_Scatter(sendbufd, sendcount, sendtype, recvbufd, recvcount, recvtype, root, comm);
}

void MPI_Allgather_d(const void *sendbuf, const void *sendbufd, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, void *recvbufd, int recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm) {
    ad_kind2(sendtype, recvtype, "MPI_Allgather");
    ad_check_buffers(sendbuf, "MPI_Allgather");
    MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    MPI_Allgather(sendbufd, sendcount, sendtype, recvbufd, recvcount, recvtype, comm);
}

void MPI_Gatherv_d(const void *sendbuf, const void *sendbufd, int sendcount,
                   MPI_Datatype sendtype, void *recvbuf, void *recvbufd, const int *recvcounts,
                   const int *displs, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    ad_kind2(sendtype, recvtype, "MPI_Gatherv");
    ad_check_buffers(sendbuf, "MPI_Gatherv");
    MPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    MPI_Gatherv(sendbufd, sendcount, sendtype, recvbufd, recvcounts, displs, recvtype, root,
                comm);
}

void MPI_Scatterv_d(const void *sendbuf, const void *sendbufd, const int *sendcounts,
                    const int *displs, MPI_Datatype sendtype, void *recvbuf, void *recvbufd,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    ad_kind2(sendtype, recvtype, "MPI_Scatterv");
    ad_check_buffers(recvbuf, "MPI_Scatterv");
    MPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                 comm);
    MPI_Scatterv(sendbufd, sendcounts, displs, sendtype, recvbufd, recvcount, recvtype, root,
                 comm);
}

/* ---- Adjoints: the communication reversed. On entry each adjoint buffer holds the adjoint
   after the call, on return the adjoint before it; the primal buffers hold the values of the
   call. ---- */

void MPI_Send_b(const void *buf, void *bufb, int count, MPI_Datatype type, int dest, int tag,
                MPI_Comm comm) {
    int kind = ad_kind(type, "MPI_Send");
    void *t = ad_alloc(kind, count);
    (void)buf;
    MPI_Recv(t, count, type, dest, tag, comm, MPI_STATUS_IGNORE);
    ad_add(kind, count, t, bufb);
    free(t);
}

void MPI_Recv_b(void *buf, void *bufb, int count, MPI_Datatype type, int source, int tag,
                MPI_Comm comm, MPI_Status *status) {
    int kind = ad_kind(type, "MPI_Recv");
    (void)buf;
    (void)status;
    if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
        ad_mpi_refuse("MPI_Recv", "the adjoint of a receive from MPI_ANY_SOURCE / MPI_ANY_TAG "
                                  "is not supported: name the source and the tag");
    MPI_Send(bufb, count, type, source, tag, comm);
    ad_zero(kind, count, bufb);
}

void MPI_Sendrecv_b(const void *sendbuf, void *sendbufb, int sendcount, MPI_Datatype sendtype,
                    int dest, int sendtag, void *recvbuf, void *recvbufb, int recvcount,
                    MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Status *status) {
    int skind = ad_kind(sendtype, "MPI_Sendrecv");
    int rkind = ad_kind(recvtype, "MPI_Sendrecv");
    (void)sendbuf;
    (void)recvbuf;
    (void)status;
    if (source == MPI_ANY_SOURCE || recvtag == MPI_ANY_TAG)
        ad_mpi_refuse("MPI_Sendrecv", "the adjoint of a receive from MPI_ANY_SOURCE / "
                                      "MPI_ANY_TAG is not supported: name the source and the tag");
    void *t = ad_alloc(skind, sendcount);
    /* The received value's adjoint goes back to its sender; the sent value's comes back from
       its receiver. */
    MPI_Sendrecv(recvbufb, recvcount, recvtype, source, recvtag, t, sendcount, sendtype, dest,
                 sendtag, comm, MPI_STATUS_IGNORE);
    ad_zero(rkind, recvcount, recvbufb);
    ad_add(skind, sendcount, t, sendbufb);
    free(t);
}

void MPI_Bcast_b(void *buf, void *bufb, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    int kind = ad_kind(type, "MPI_Bcast");
    int rank;
    (void)buf;
    MPI_Comm_rank(comm, &rank);
    void *t = ad_alloc(kind, count);
    MPI_Reduce(bufb, t, count, type, MPI_SUM, root, comm);
    if (rank == root)
        memcpy(bufb, t, ad_size(kind) * (size_t)count);
    else
        ad_zero(kind, count, bufb);
    free(t);
}

/* sendb += the adjoint of the reduction's result (every rank's, summed) where this rank
   contributed: every element for a sum, the ones it held the extremum of for MAX/MIN. */
static void ad_reduction_b(const void *send, void *sendb, const void *resb, int count,
                           MPI_Datatype type, MPI_Op op, MPI_Comm comm, int kind) {
    if (!ad_extremum(op)) {
        ad_add(kind, count, resb, sendb);
        return;
    }
    int rank;
    MPI_Comm_rank(comm, &rank);
    int *owner = ad_owners(send, count, type, op, comm, kind);
    for (int i = 0; i < count; i++)
        if (owner[i] == rank)
            ad_set(kind, sendb, i, ad_get(kind, sendb, i) + ad_get(kind, resb, i));
    free(owner);
}

void MPI_Reduce_b(const void *sendbuf, void *sendbufb, void *recvbuf, void *recvbufb,
                  int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
    int kind = ad_kind(type, "MPI_Reduce");
    int rank;
    (void)recvbuf;
    ad_check_op(op, "MPI_Reduce");
    ad_check_buffers(sendbuf, "MPI_Reduce");
    MPI_Comm_rank(comm, &rank);
    void *t = ad_alloc(kind, count);
    if (rank == root)
        memcpy(t, recvbufb, ad_size(kind) * (size_t)count);
    MPI_Bcast(t, count, type, root, comm);
    ad_reduction_b(sendbuf, sendbufb, t, count, type, op, comm, kind);
    if (rank == root)
        ad_zero(kind, count, recvbufb);
    free(t);
}

void MPI_Allreduce_b(const void *sendbuf, void *sendbufb, void *recvbuf, void *recvbufb,
                     int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    int kind = ad_kind(type, "MPI_Allreduce");
    (void)recvbuf;
    ad_check_op(op, "MPI_Allreduce");
    ad_check_buffers(sendbuf, "MPI_Allreduce");
    void *t = ad_alloc(kind, count);
    MPI_Allreduce(recvbufb, t, count, type, MPI_SUM, comm);
    ad_zero(kind, count, recvbufb);
    ad_reduction_b(sendbuf, sendbufb, t, count, type, op, comm, kind);
    free(t);
}

void MPI_Gather_b(const void *sendbuf, void *sendbufb, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, void *recvbufb, int recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm) {
    int kind = ad_kind2(sendtype, recvtype, "MPI_Gather");
    (void)sendbuf;
    (void)recvbuf;
    void *t = ad_alloc(kind, sendcount);
    MPI_Scatter(recvbufb, recvcount, recvtype, t, sendcount, sendtype, root, comm);
    ad_add(kind, sendcount, t, sendbufb);
    if (ad_rank(comm) == root)
        ad_zero(kind, recvcount * ad_nranks(comm), recvbufb);
    free(t);
}

void MPI_Scatter_b(const void *sendbuf, void *sendbufb, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, void *recvbufb, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm) {
    int kind = ad_kind2(sendtype, recvtype, "MPI_Scatter");
    int all = ad_rank(comm) == root ? sendcount * ad_nranks(comm) : 0;
    (void)sendbuf;
    (void)recvbuf;
    void *t = ad_alloc(kind, all);
    MPI_Gather(recvbufb, recvcount, recvtype, t, sendcount, sendtype, root, comm);
    ad_zero(kind, recvcount, recvbufb);
    if (all > 0)
        ad_add(kind, all, t, sendbufb);
    free(t);
}

void MPI_Allgather_b(const void *sendbuf, void *sendbufb, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, void *recvbufb, int recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm) {
    int kind = ad_kind2(sendtype, recvtype, "MPI_Allgather");
    (void)sendbuf;
    (void)recvbuf;
    if (sendcount != recvcount)
        ad_mpi_refuse("MPI_Allgather", "the adjoint needs the send and receive counts equal");
    void *t = ad_alloc(kind, sendcount);
    /* Every rank's adjoint of block r, summed, goes to rank r. */
    MPI_Reduce_scatter_block(recvbufb, t, recvcount, recvtype, MPI_SUM, comm);
    ad_zero(kind, recvcount * ad_nranks(comm), recvbufb);
    ad_add(kind, sendcount, t, sendbufb);
    free(t);
}

void MPI_Gatherv_b(const void *sendbuf, void *sendbufb, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, void *recvbufb, const int *recvcounts, const int *displs,
                   MPI_Datatype recvtype, int root, MPI_Comm comm) {
    int kind = ad_kind2(sendtype, recvtype, "MPI_Gatherv");
    (void)sendbuf;
    (void)recvbuf;
    void *t = ad_alloc(kind, sendcount);
    /* The root's adjoint of each block goes back to its sender (blocks of a gather do not
       overlap), then is cleared. */
    MPI_Scatterv(recvbufb, recvcounts, displs, recvtype, t, sendcount, sendtype, root, comm);
    ad_add(kind, sendcount, t, sendbufb);
    if (ad_rank(comm) == root)
        for (int r = 0, n = ad_nranks(comm); r < n; r++)
            ad_zero(kind, recvcounts[r], (char *)recvbufb + ad_size(kind) * (size_t)displs[r]);
    free(t);
}

void MPI_Scatterv_b(const void *sendbuf, void *sendbufb, const int *sendcounts,
                    const int *displs, MPI_Datatype sendtype, void *recvbuf, void *recvbufb,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    int kind = ad_kind2(sendtype, recvtype, "MPI_Scatterv");
    int root_here = ad_rank(comm) == root, n = ad_nranks(comm), all = 0;
    int *packed = NULL;
    (void)sendbuf;
    (void)recvbuf;
    if (root_here) {
        /* The pieces' adjoints gathered one after the other (blocks of a scatter may
           overlap), then each added at its own displacement. */
        packed = malloc(sizeof(int) * (size_t)n);
        for (int r = 0; r < n; r++) {
            packed[r] = all;
            all += sendcounts[r];
        }
    }
    void *t = ad_alloc(kind, all);
    MPI_Gatherv(recvbufb, recvcount, recvtype, t, sendcounts, packed, sendtype, root, comm);
    ad_zero(kind, recvcount, recvbufb);
    if (root_here) {
        for (int r = 0; r < n; r++)
            ad_add(kind, sendcounts[r], (char *)t + ad_size(kind) * (size_t)packed[r],
                   (char *)sendbufb + ad_size(kind) * (size_t)displs[r]);
        free(packed);
    }
    free(t);
}

/* ---- Non-blocking adjoints. A request is known by the address of the user's request
   variable, the same in both sweeps. ---- */

typedef struct {
    const void *key; /* the user's request variable (C MPI_Request, Fortran integer) */
    int send;         /* 1 MPI_Isend, 0 MPI_Irecv, -1 a request radtap did not start */
    void *bufb;       /* the adjoint buffer */
    int count, peer, tag, kind;
    MPI_Datatype type;
    MPI_Comm comm;
    MPI_Request reversed; /* backward sweep: the reversed message */
    void *temp;           /* backward sweep: its buffer */
} ad_message;

/* Started in the forward sweep, not yet completed. */
static ad_message *ad_started;
static int ad_nstarted, ad_capstarted;
/* Completed in the forward sweep, in order (a stack the backward sweep pops). */
static ad_message *ad_done;
static int ad_ndone, ad_capdone;
/* Started in the backward sweep (by MPI_Wait_b), not yet completed. */
static ad_message *ad_reversed;
static int ad_nreversed, ad_capreversed;

static void ad_append(ad_message **v, int *n, int *cap, ad_message m) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *v = realloc(*v, sizeof(ad_message) * (size_t)*cap);
        if (!*v)
            ad_mpi_refuse("radtap MPI layer", "out of memory");
    }
    (*v)[(*n)++] = m;
}

/* Removes and returns the entry of `key` from v (send = -1 when there is none). */
static ad_message ad_remove(ad_message *v, int *n, const void *key) {
    for (int i = *n - 1; i >= 0; i--)
        if (v[i].key == key) {
            ad_message m = v[i];
            v[i] = v[--*n];
            return m;
        }
    ad_message none;
    memset(&none, 0, sizeof none);
    none.key = key;
    none.send = -1;
    return none;
}

static void ad_start(int send, void *bufb, int count, MPI_Datatype type, int peer, int tag,
                     MPI_Comm comm, const void *request, const char *routine) {
    ad_message m;
    memset(&m, 0, sizeof m);
    m.key = request;
    m.send = send;
    m.bufb = bufb;
    m.count = count;
    m.type = type;
    m.kind = ad_kind(type, routine);
    m.peer = peer;
    m.tag = tag;
    m.comm = comm;
    ad_remove(ad_started, &ad_nstarted, request);
    ad_append(&ad_started, &ad_nstarted, &ad_capstarted, m);
}

void MPI_Isend_fwd(const void *buf, void *bufb, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm, MPI_Request *request) {
    MPI_Isend(buf, count, type, dest, tag, comm, request);
    ad_start(1, bufb, count, type, dest, tag, comm, request, "MPI_Isend");
}

static void ad_check_source(int source, int tag) {
    if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
        ad_mpi_refuse("MPI_Irecv", "the adjoint of a receive from MPI_ANY_SOURCE / MPI_ANY_TAG "
                                   "is not supported: name the source and the tag");
}

void MPI_Irecv_fwd(void *buf, void *bufb, int count, MPI_Datatype type, int source, int tag,
                   MPI_Comm comm, MPI_Request *request) {
    if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
        ad_mpi_refuse("MPI_Irecv", "the adjoint of a receive from MPI_ANY_SOURCE / MPI_ANY_TAG "
                                   "is not supported: name the source and the tag");
    MPI_Irecv(buf, count, type, source, tag, comm, request);
    ad_start(0, bufb, count, type, source, tag, comm, request, "MPI_Irecv");
}

static void ad_completed(const void *request) {
    ad_message m = ad_remove(ad_started, &ad_nstarted, request);
    ad_append(&ad_done, &ad_ndone, &ad_capdone, m);
}

void MPI_Wait_fwd(MPI_Request *request, MPI_Status *status) {
    MPI_Wait(request, status);
    ad_completed(request);
}

void MPI_Waitall_fwd(int count, MPI_Request *requests, MPI_Status *statuses) {
    MPI_Waitall(count, requests, statuses);
    for (int i = 0; i < count; i++)
        ad_completed(&requests[i]);
}

/* The reverse of one completion: a send's adjoint comes back from its receiver into a
   temporary; a receive's adjoint (complete now: MPI forbids touching the buffer between the
   receive and its completion) goes back to its sender, and is cleared. */
static void ad_reverse_completion(const void *request) {
    if (ad_ndone == 0)
        ad_mpi_refuse("MPI_Wait", "the backward sweep completes more requests than the forward "
                                  "sweep did");
    ad_message m = ad_done[--ad_ndone];
    if (m.key != request)
        ad_mpi_refuse("MPI_Wait", "the backward sweep completes requests in another order than "
                                  "the reverse of the forward sweep");
    if (m.send < 0)
        return;
    m.temp = ad_alloc(m.kind, m.count);
    if (m.send) {
        MPI_Irecv(m.temp, m.count, m.type, m.peer, m.tag, m.comm, &m.reversed);
    } else {
        memcpy(m.temp, m.bufb, ad_size(m.kind) * (size_t)m.count);
        ad_zero(m.kind, m.count, m.bufb);
        MPI_Isend(m.temp, m.count, m.type, m.peer, m.tag, m.comm, &m.reversed);
    }
    ad_append(&ad_reversed, &ad_nreversed, &ad_capreversed, m);
}

void MPI_Wait_b(MPI_Request *request, MPI_Status *status) {
    (void)status;
    ad_reverse_completion(request);
}

void MPI_Waitall_b(int count, MPI_Request *requests, MPI_Status *statuses) {
    (void)statuses;
    for (int i = count - 1; i >= 0; i--)
        ad_reverse_completion(&requests[i]);
}

/* The reverse of a start: the reversed message completes; a send's adjoint is added. */
static void ad_reverse_start(const void *request, void *bufb, const char *routine) {
    ad_message m = ad_remove(ad_reversed, &ad_nreversed, request);
    if (m.send < 0)
        ad_mpi_refuse(routine, "the backward sweep reaches a request it did not complete (a "
                               "request waited for outside the differentiated code?)");
    MPI_Wait(&m.reversed, MPI_STATUS_IGNORE);
    if (m.send)
        ad_add(m.kind, m.count, m.temp, bufb);
    free(m.temp);
}

void MPI_Isend_b(const void *buf, void *bufb, int count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request) {
    (void)buf;
    (void)count;
    (void)type;
    (void)dest;
    (void)tag;
    (void)comm;
    ad_reverse_start(request, bufb, "MPI_Isend");
}

void MPI_Irecv_b(void *buf, void *bufb, int count, MPI_Datatype type, int source, int tag,
                 MPI_Comm comm, MPI_Request *request) {
    (void)buf;
    (void)count;
    (void)type;
    (void)source;
    (void)tag;
    (void)comm;
    ad_reverse_start(request, bufb, "MPI_Irecv");
}

/* ---- Fortran bindings (`use mpi`, `include 'mpif.h'`): gfortran calls `mpi_send_d(...)` as
   `mpi_send_d_`, every argument by reference, handles as Fortran integers, the error code
   last. Each converts its handles and calls the C routine above. ---- */

#define AD_COMM(c) MPI_Comm_f2c(*(c))
#define AD_TYPE(t) MPI_Type_f2c(*(t))
#define AD_OP(o) MPI_Op_f2c(*(o))

static MPI_Status *ad_fstatus(MPI_Fint *f, MPI_Status *st) {
    return f == MPI_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : st;
}

static void ad_fstatus_out(MPI_Fint *f, MPI_Status *st) {
    if (f != MPI_F_STATUS_IGNORE)
        MPI_Status_c2f(st, f);
}

void mpi_send_d_(void *buf, void *bufd, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest,
                 MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Send_d(buf, bufd, *count, AD_TYPE(type), *dest, *tag, AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_recv_d_(void *buf, void *bufd, MPI_Fint *count, MPI_Fint *type, MPI_Fint *source,
                 MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr) {
    MPI_Status st;
    MPI_Recv_d(buf, bufd, *count, AD_TYPE(type), *source, *tag, AD_COMM(comm),
               ad_fstatus(status, &st));
    ad_fstatus_out(status, &st);
    *ierr = MPI_SUCCESS;
}

void mpi_sendrecv_d_(void *sendbuf, void *sendbufd, MPI_Fint *sendcount, MPI_Fint *sendtype,
                     MPI_Fint *dest, MPI_Fint *sendtag, void *recvbuf, void *recvbufd,
                     MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *source,
                     MPI_Fint *recvtag, MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr) {
    MPI_Status st;
    MPI_Sendrecv_d(sendbuf, sendbufd, *sendcount, AD_TYPE(sendtype), *dest, *sendtag, recvbuf,
                   recvbufd, *recvcount, AD_TYPE(recvtype), *source, *recvtag, AD_COMM(comm),
                   ad_fstatus(status, &st));
    ad_fstatus_out(status, &st);
    *ierr = MPI_SUCCESS;
}

void mpi_isend_d_(void *buf, void *bufd, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest,
                  MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr) {
    MPI_Request r;
    MPI_Isend_d(buf, bufd, *count, AD_TYPE(type), *dest, *tag, AD_COMM(comm), &r);
    *request = MPI_Request_c2f(r);
    *ierr = MPI_SUCCESS;
}

void mpi_irecv_d_(void *buf, void *bufd, MPI_Fint *count, MPI_Fint *type, MPI_Fint *source,
                  MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr) {
    MPI_Request r;
    MPI_Irecv_d(buf, bufd, *count, AD_TYPE(type), *source, *tag, AD_COMM(comm), &r);
    *request = MPI_Request_c2f(r);
    *ierr = MPI_SUCCESS;
}

void mpi_wait_d_(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr) {
    MPI_Status st;
    MPI_Request r = MPI_Request_f2c(*request);
    MPI_Wait_d(&r, ad_fstatus(status, &st));
    *request = MPI_Request_c2f(r);
    ad_fstatus_out(status, &st);
    *ierr = MPI_SUCCESS;
}

void mpi_waitall_d_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierr) {
    int n = *count;
    MPI_Request *r = malloc(sizeof(MPI_Request) * (n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        r[i] = MPI_Request_f2c(requests[i]);
    if (statuses != MPI_F_STATUSES_IGNORE) {
        MPI_Status *st = malloc(sizeof(MPI_Status) * (n > 0 ? n : 1));
        MPI_Waitall_d(n, r, st);
        for (int i = 0; i < n; i++)
            MPI_Status_c2f(&st[i], statuses + i * (int)(sizeof(MPI_Status) / sizeof(MPI_Fint)));
        free(st);
    } else {
        MPI_Waitall_d(n, r, MPI_STATUSES_IGNORE);
    }
    for (int i = 0; i < n; i++)
        requests[i] = MPI_Request_c2f(r[i]);
    free(r);
    *ierr = MPI_SUCCESS;
}

void mpi_bcast_d_(void *buf, void *bufd, MPI_Fint *count, MPI_Fint *type, MPI_Fint *root,
                  MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Bcast_d(buf, bufd, *count, AD_TYPE(type), *root, AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_reduce_d_(void *sendbuf, void *sendbufd, void *recvbuf, void *recvbufd,
                   MPI_Fint *count, MPI_Fint *type, MPI_Fint *op, MPI_Fint *root,
                   MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Reduce_d(sendbuf, sendbufd, recvbuf, recvbufd, *count, AD_TYPE(type), AD_OP(op), *root,
                 AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_allreduce_d_(void *sendbuf, void *sendbufd, void *recvbuf, void *recvbufd,
                      MPI_Fint *count, MPI_Fint *type, MPI_Fint *op, MPI_Fint *comm,
                      MPI_Fint *ierr) {
    MPI_Allreduce_d(sendbuf, sendbufd, recvbuf, recvbufd, *count, AD_TYPE(type), AD_OP(op),
                    AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_send_b_(void *buf, void *bufb, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest,
                 MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Send_b(buf, bufb, *count, AD_TYPE(type), *dest, *tag, AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_recv_b_(void *buf, void *bufb, MPI_Fint *count, MPI_Fint *type, MPI_Fint *source,
                 MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr) {
    (void)status;
    MPI_Recv_b(buf, bufb, *count, AD_TYPE(type), *source, *tag, AD_COMM(comm),
               MPI_STATUS_IGNORE);
    *ierr = MPI_SUCCESS;
}

void mpi_sendrecv_b_(void *sendbuf, void *sendbufb, MPI_Fint *sendcount, MPI_Fint *sendtype,
                     MPI_Fint *dest, MPI_Fint *sendtag, void *recvbuf, void *recvbufb,
                     MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *source,
                     MPI_Fint *recvtag, MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr) {
    (void)status;
    MPI_Sendrecv_b(sendbuf, sendbufb, *sendcount, AD_TYPE(sendtype), *dest, *sendtag, recvbuf,
                   recvbufb, *recvcount, AD_TYPE(recvtype), *source, *recvtag, AD_COMM(comm),
                   MPI_STATUS_IGNORE);
    *ierr = MPI_SUCCESS;
}

void mpi_bcast_b_(void *buf, void *bufb, MPI_Fint *count, MPI_Fint *type, MPI_Fint *root,
                  MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Bcast_b(buf, bufb, *count, AD_TYPE(type), *root, AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_reduce_b_(void *sendbuf, void *sendbufb, void *recvbuf, void *recvbufb,
                   MPI_Fint *count, MPI_Fint *type, MPI_Fint *op, MPI_Fint *root,
                   MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Reduce_b(sendbuf, sendbufb, recvbuf, recvbufb, *count, AD_TYPE(type), AD_OP(op), *root,
                 AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_allreduce_b_(void *sendbuf, void *sendbufb, void *recvbuf, void *recvbufb,
                      MPI_Fint *count, MPI_Fint *type, MPI_Fint *op, MPI_Fint *comm,
                      MPI_Fint *ierr) {
    MPI_Allreduce_b(sendbuf, sendbufb, recvbuf, recvbufb, *count, AD_TYPE(type), AD_OP(op),
                    AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

/* Non-blocking adjoints: a request is known by the address of the Fortran integer. */
void mpi_isend_fwd_(void *buf, void *bufb, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest,
                    MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr) {
    MPI_Request r;
    MPI_Isend(buf, *count, AD_TYPE(type), *dest, *tag, AD_COMM(comm), &r);
    *request = MPI_Request_c2f(r);
    ad_start(1, bufb, *count, AD_TYPE(type), *dest, *tag, AD_COMM(comm), request, "MPI_Isend");
    *ierr = MPI_SUCCESS;
}

void mpi_irecv_fwd_(void *buf, void *bufb, MPI_Fint *count, MPI_Fint *type, MPI_Fint *source,
                    MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr) {
    MPI_Request r;
    ad_check_source(*source, *tag);
    MPI_Irecv(buf, *count, AD_TYPE(type), *source, *tag, AD_COMM(comm), &r);
    *request = MPI_Request_c2f(r);
    ad_start(0, bufb, *count, AD_TYPE(type), *source, *tag, AD_COMM(comm), request, "MPI_Irecv");
    *ierr = MPI_SUCCESS;
}

void mpi_wait_fwd_(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr) {
    MPI_Status st;
    MPI_Request r = MPI_Request_f2c(*request);
    MPI_Wait(&r, ad_fstatus(status, &st));
    *request = MPI_Request_c2f(r);
    ad_fstatus_out(status, &st);
    ad_completed(request);
    *ierr = MPI_SUCCESS;
}

void mpi_waitall_fwd_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierr) {
    int n = *count;
    MPI_Request *r = malloc(sizeof(MPI_Request) * (n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        r[i] = MPI_Request_f2c(requests[i]);
    MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
    (void)statuses;
    for (int i = 0; i < n; i++) {
        requests[i] = MPI_Request_c2f(r[i]);
        ad_completed(&requests[i]);
    }
    free(r);
    *ierr = MPI_SUCCESS;
}

void mpi_wait_b_(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr) {
    (void)status;
    ad_reverse_completion(request);
    *ierr = MPI_SUCCESS;
}

void mpi_waitall_b_(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierr) {
    (void)statuses;
    for (int i = *count - 1; i >= 0; i--)
        ad_reverse_completion(&requests[i]);
    *ierr = MPI_SUCCESS;
}

void mpi_isend_b_(void *buf, void *bufb, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest,
                  MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr) {
    (void)buf, (void)count, (void)type, (void)dest, (void)tag, (void)comm;
    ad_reverse_start(request, bufb, "MPI_Isend");
    *ierr = MPI_SUCCESS;
}

void mpi_irecv_b_(void *buf, void *bufb, MPI_Fint *count, MPI_Fint *type, MPI_Fint *source,
                  MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr) {
    (void)buf, (void)count, (void)type, (void)source, (void)tag, (void)comm;
    ad_reverse_start(request, bufb, "MPI_Irecv");
    *ierr = MPI_SUCCESS;
}

/* Gathers and scatters (`use mpi`, `include 'mpif.h'`). */
void mpi_gather_d_(void *sendbuf, void *sendbufd, MPI_Fint *sendcount, MPI_Fint *sendtype,
                   void *recvbuf, void *recvbufd, MPI_Fint *recvcount, MPI_Fint *recvtype,
                   MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Gather_d(sendbuf, sendbufd, *sendcount, AD_TYPE(sendtype), recvbuf, recvbufd,
                 *recvcount, AD_TYPE(recvtype), *root, AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_scatter_d_(void *sendbuf, void *sendbufd, MPI_Fint *sendcount, MPI_Fint *sendtype,
                    void *recvbuf, void *recvbufd, MPI_Fint *recvcount, MPI_Fint *recvtype,
                    MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Scatter_d(sendbuf, sendbufd, *sendcount, AD_TYPE(sendtype), recvbuf, recvbufd,
                  *recvcount, AD_TYPE(recvtype), *root, AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_allgather_d_(void *sendbuf, void *sendbufd, MPI_Fint *sendcount, MPI_Fint *sendtype,
                      void *recvbuf, void *recvbufd, MPI_Fint *recvcount, MPI_Fint *recvtype,
                      MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Allgather_d(sendbuf, sendbufd, *sendcount, AD_TYPE(sendtype), recvbuf, recvbufd,
                    *recvcount, AD_TYPE(recvtype), AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

/* Fortran's integer arrays of counts and displacements, as C ints. */
static int *ad_ints(const MPI_Fint *f, int n) {
    int *v = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        v[i] = (int)f[i];
    return v;
}

void mpi_gatherv_d_(void *sendbuf, void *sendbufd, MPI_Fint *sendcount, MPI_Fint *sendtype,
                    void *recvbuf, void *recvbufd, MPI_Fint *recvcounts, MPI_Fint *displs,
                    MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
    int n = ad_nranks(AD_COMM(comm));
    /* Significant at the root only. */
    int here = ad_rank(AD_COMM(comm)) == *root;
    int *c = ad_ints(recvcounts, here ? n : 0), *d = ad_ints(displs, here ? n : 0);
    MPI_Gatherv_d(sendbuf, sendbufd, *sendcount, AD_TYPE(sendtype), recvbuf, recvbufd, c, d,
                  AD_TYPE(recvtype), *root, AD_COMM(comm));
    free(c);
    free(d);
    *ierr = MPI_SUCCESS;
}

void mpi_scatterv_d_(void *sendbuf, void *sendbufd, MPI_Fint *sendcounts, MPI_Fint *displs,
                     MPI_Fint *sendtype, void *recvbuf, void *recvbufd, MPI_Fint *recvcount,
                     MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
    int n = ad_nranks(AD_COMM(comm));
    /* Significant at the root only. */
    int here = ad_rank(AD_COMM(comm)) == *root;
    int *c = ad_ints(sendcounts, here ? n : 0), *d = ad_ints(displs, here ? n : 0);
    MPI_Scatterv_d(sendbuf, sendbufd, c, d, AD_TYPE(sendtype), recvbuf, recvbufd, *recvcount,
                   AD_TYPE(recvtype), *root, AD_COMM(comm));
    free(c);
    free(d);
    *ierr = MPI_SUCCESS;
}

void mpi_gather_b_(void *sendbuf, void *sendbufb, MPI_Fint *sendcount, MPI_Fint *sendtype,
                   void *recvbuf, void *recvbufb, MPI_Fint *recvcount, MPI_Fint *recvtype,
                   MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Gather_b(sendbuf, sendbufb, *sendcount, AD_TYPE(sendtype), recvbuf, recvbufb,
                 *recvcount, AD_TYPE(recvtype), *root, AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_scatter_b_(void *sendbuf, void *sendbufb, MPI_Fint *sendcount, MPI_Fint *sendtype,
                    void *recvbuf, void *recvbufb, MPI_Fint *recvcount, MPI_Fint *recvtype,
                    MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Scatter_b(sendbuf, sendbufb, *sendcount, AD_TYPE(sendtype), recvbuf, recvbufb,
                  *recvcount, AD_TYPE(recvtype), *root, AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_allgather_b_(void *sendbuf, void *sendbufb, MPI_Fint *sendcount, MPI_Fint *sendtype,
                      void *recvbuf, void *recvbufb, MPI_Fint *recvcount, MPI_Fint *recvtype,
                      MPI_Fint *comm, MPI_Fint *ierr) {
    MPI_Allgather_b(sendbuf, sendbufb, *sendcount, AD_TYPE(sendtype), recvbuf, recvbufb,
                    *recvcount, AD_TYPE(recvtype), AD_COMM(comm));
    *ierr = MPI_SUCCESS;
}

void mpi_gatherv_b_(void *sendbuf, void *sendbufb, MPI_Fint *sendcount, MPI_Fint *sendtype,
                    void *recvbuf, void *recvbufb, MPI_Fint *recvcounts, MPI_Fint *displs,
                    MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
    int n = ad_nranks(AD_COMM(comm));
    /* Significant at the root only. */
    int here = ad_rank(AD_COMM(comm)) == *root;
    int *c = ad_ints(recvcounts, here ? n : 0), *d = ad_ints(displs, here ? n : 0);
    MPI_Gatherv_b(sendbuf, sendbufb, *sendcount, AD_TYPE(sendtype), recvbuf, recvbufb, c, d,
                  AD_TYPE(recvtype), *root, AD_COMM(comm));
    free(c);
    free(d);
    *ierr = MPI_SUCCESS;
}

void mpi_scatterv_b_(void *sendbuf, void *sendbufb, MPI_Fint *sendcounts, MPI_Fint *displs,
                     MPI_Fint *sendtype, void *recvbuf, void *recvbufb, MPI_Fint *recvcount,
                     MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr) {
    int n = ad_nranks(AD_COMM(comm));
    /* Significant at the root only. */
    int here = ad_rank(AD_COMM(comm)) == *root;
    int *c = ad_ints(sendcounts, here ? n : 0), *d = ad_ints(displs, here ? n : 0);
    MPI_Scatterv_b(sendbuf, sendbufb, c, d, AD_TYPE(sendtype), recvbuf, recvbufb, *recvcount,
                   AD_TYPE(recvtype), *root, AD_COMM(comm));
    free(c);
    free(d);
    *ierr = MPI_SUCCESS;
}
