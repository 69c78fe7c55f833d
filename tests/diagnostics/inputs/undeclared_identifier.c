int main(void)
{
    double y;
    y = z + 1.0;
    return (int)y;
}
