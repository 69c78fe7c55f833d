_Pragma("x")
int main(void)
{
    _Pragma("once")
    return 0;
}
