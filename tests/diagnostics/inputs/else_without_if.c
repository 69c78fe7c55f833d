int main(void)
{
    int x = 0;
    else
        x = 1;
    return x;
}
