/* radtap's MPI layer: the tangents (NAME_d) and adjoints (NAME_b) of the MPI routines radtap
   describes built in (il/src/library/mpi.lib). Written by `radtap runtime`; compile adMPI.c
   with mpicc and link it with the generated code.

   Calling convention (radtap's, as for any described routine): the original arguments in
   order, each real buffer followed by its derivative (tangent) or adjoint buffer. Tangent:
   the derivatives travel with the data (each message is followed by its derivative message,
   on the same communicator and tag). Adjoint: the communication reversed (a send receives
   the adjoint its receiver sent back and adds it; a receive sends its adjoint back and
   clears it; Bcast <-> Reduce(SUM); Allreduce(SUM) of the adjoints; MAX/MIN: the adjoint
   goes to the rank that held the extremum, the lowest such rank on a tie). Real data:
   MPI_DOUBLE, MPI_FLOAT, MPI_LONG_DOUBLE and Fortran's MPI_DOUBLE_PRECISION, MPI_REAL,
   MPI_REAL4, MPI_REAL8; anything else stops the program with a message (MPI_Abort). */
#ifndef ADMPI_H
#define ADMPI_H
#include <mpi.h>

void MPI_Send_d(const void *buf, const void *bufd, int count, MPI_Datatype type, int dest,
                int tag, MPI_Comm comm);
void MPI_Recv_d(void *buf, void *bufd, int count, MPI_Datatype type, int source, int tag,
                MPI_Comm comm, MPI_Status *status);
void MPI_Sendrecv_d(const void *sendbuf, const void *sendbufd, int sendcount,
                    MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, void *recvbufd,
                    int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Status *status);
void MPI_Isend_d(const void *buf, const void *bufd, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, MPI_Request *request);
void MPI_Irecv_d(void *buf, void *bufd, int count, MPI_Datatype type, int source, int tag,
                 MPI_Comm comm, MPI_Request *request);
void MPI_Wait_d(MPI_Request *request, MPI_Status *status);
void MPI_Waitall_d(int count, MPI_Request *requests, MPI_Status *statuses);
void MPI_Bcast_d(void *buf, void *bufd, int count, MPI_Datatype type, int root, MPI_Comm comm);
void MPI_Reduce_d(const void *sendbuf, const void *sendbufd, void *recvbuf, void *recvbufd,
                  int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
void MPI_Allreduce_d(const void *sendbuf, const void *sendbufd, void *recvbuf, void *recvbufd,
                     int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
void MPI_Gather_d(const void *sendbuf, const void *sendbufd, int sendcount,
                  MPI_Datatype sendtype, void *recvbuf, void *recvbufd, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm);
void MPI_Scatter_d(const void *sendbuf, const void *sendbufd, int sendcount,
                   MPI_Datatype sendtype, void *recvbuf, void *recvbufd, int recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm);
void MPI_Allgather_d(const void *sendbuf, const void *sendbufd, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, void *recvbufd, int recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm);
void MPI_Gatherv_d(const void *sendbuf, const void *sendbufd, int sendcount,
                   MPI_Datatype sendtype, void *recvbuf, void *recvbufd, const int *recvcounts,
                   const int *displs, MPI_Datatype recvtype, int root, MPI_Comm comm);
void MPI_Scatterv_d(const void *sendbuf, const void *sendbufd, const int *sendcounts,
                    const int *displs, MPI_Datatype sendtype, void *recvbuf, void *recvbufd,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);

void MPI_Send_b(const void *buf, void *bufb, int count, MPI_Datatype type, int dest, int tag,
                MPI_Comm comm);
void MPI_Recv_b(void *buf, void *bufb, int count, MPI_Datatype type, int source, int tag,
                MPI_Comm comm, MPI_Status *status);
void MPI_Sendrecv_b(const void *sendbuf, void *sendbufb, int sendcount, MPI_Datatype sendtype,
                    int dest, int sendtag, void *recvbuf, void *recvbufb, int recvcount,
                    MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Status *status);
/* Non-blocking adjoints: the forward sweep calls NAME_fwd with the arguments of NAME_b (it
   records each request's message and adjoint buffer, and the order of completion); the
   backward sweep's MPI_Wait_b / MPI_Waitall_b start the reversed messages, MPI_Isend_b /
   MPI_Irecv_b complete them. */
void MPI_Isend_fwd(const void *buf, void *bufb, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm, MPI_Request *request);
void MPI_Irecv_fwd(void *buf, void *bufb, int count, MPI_Datatype type, int source, int tag,
                   MPI_Comm comm, MPI_Request *request);
void MPI_Wait_fwd(MPI_Request *request, MPI_Status *status);
void MPI_Waitall_fwd(int count, MPI_Request *requests, MPI_Status *statuses);
void MPI_Isend_b(const void *buf, void *bufb, int count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request);
void MPI_Irecv_b(void *buf, void *bufb, int count, MPI_Datatype type, int source, int tag,
                 MPI_Comm comm, MPI_Request *request);
void MPI_Wait_b(MPI_Request *request, MPI_Status *status);
void MPI_Waitall_b(int count, MPI_Request *requests, MPI_Status *statuses);
void MPI_Bcast_b(void *buf, void *bufb, int count, MPI_Datatype type, int root, MPI_Comm comm);
void MPI_Reduce_b(const void *sendbuf, void *sendbufb, void *recvbuf, void *recvbufb,
                  int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
void MPI_Allreduce_b(const void *sendbuf, void *sendbufb, void *recvbuf, void *recvbufb,
                     int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
/* Gathers and scatters: the adjoint of a gather is a scatter of the gathered adjoints, added
   to the contributions' adjoints (the root's gathered adjoints cleared); of a scatter, a
   gather of the pieces' adjoints added at the root (the pieces' adjoints cleared); of an
   allgather, a sum over the ranks of the gathered adjoints, each rank adding its own block
   (MPI_Reduce_scatter_block). The send and receive datatypes must be the same real kind. */
void MPI_Gather_b(const void *sendbuf, void *sendbufb, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, void *recvbufb, int recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm);
void MPI_Scatter_b(const void *sendbuf, void *sendbufb, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, void *recvbufb, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm);
void MPI_Allgather_b(const void *sendbuf, void *sendbufb, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf, void *recvbufb, int recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm);
void MPI_Gatherv_b(const void *sendbuf, void *sendbufb, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, void *recvbufb, const int *recvcounts, const int *displs,
                   MPI_Datatype recvtype, int root, MPI_Comm comm);
void MPI_Scatterv_b(const void *sendbuf, void *sendbufb, const int *sendcounts,
                    const int *displs, MPI_Datatype sendtype, void *recvbuf, void *recvbufb,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);

#endif
